"""Random pytrec_eval dicts (``{qid: {docno: number}}``), shared by the tests that check
them against pytrec_eval and ir_measures (tests/ir/test_pytrec.py,
tests/ir/test_ir_measures.py, tests/metrics/test_query_scores_dicts.py)."""


def random_dicts(rng, n_queries, n_documents, *, score_levels=3, key=None, unjudged=1.0):
    """Integer qrels (levels 0..3, 70 % of a query's documents judged) and a run of tied
    integer scores (``score_levels`` values, 80 % of the documents ranked), each query of
    1 to ``n_documents - 1`` documents; ``key(q)`` names query ``q`` (default ``"q{q}"``).
    A query without judgments is ranked with probability ``unjudged``."""
    key = key or (lambda q: f"q{q}")
    qrels, run = {}, {}
    for q in range(n_queries):
        docs = [f"d{i}" for i in range(rng.integers(1, n_documents))]
        judged = {d: int(rng.integers(0, 4)) for d in docs if rng.random() < 0.7}
        ranked = {d: float(rng.integers(0, score_levels)) for d in docs if rng.random() < 0.8}
        if judged:
            qrels[key(q)] = judged
        if ranked and (judged or rng.random() < unjudged):
            run[key(q)] = ranked
    return qrels, run


def trec_eval_binary():
    """The trec_eval 10.0 binary (``SKLEARN_NDCG_TREC_EVAL``, or the one beside
    ``SKLEARN_NDCG_TREC_EVAL_TESTS``, or /tmp/te/trec_eval), or None if absent."""
    import os
    from pathlib import Path

    tests = os.environ.get("SKLEARN_NDCG_TREC_EVAL_TESTS")
    candidates = [os.environ.get("SKLEARN_NDCG_TREC_EVAL"), tests and f"{tests}/../trec_eval"]
    for candidate in [*candidates, "/tmp/te/trec_eval"]:
        if candidate and Path(candidate).is_file():
            return Path(candidate).resolve()
    return None
