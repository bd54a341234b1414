"""CONVENTIONS["spark"] against PySpark itself: ``RankingEvaluator(metricName="ndcgAtK")``
of Spark ML and ``RankingMetrics.ndcgAt`` of mllib, on a local Spark, 40+ random queries,
some with an empty ground truth.

Each query has candidate documents with graded labels (0..3) and tie-free scores; Spark is
given the candidates' ids in order of decreasing score and the ids with a positive label.
"""

import numpy as np
import pytest

from sklearn_ndcg import CONVENTIONS, JudgmentPool, ndcg_score, query_scores
from sklearn_ndcg import spark as ndcg_spark

pytestmark = pytest.mark.filterwarnings(
    "ignore:PySpark does not yet fully support pandas:FutureWarning",
    "ignore:Deprecated in 3.0.0:FutureWarning",  # mllib's RankingMetrics uses SQLContext
)


def _queries(seed, n_queries=45):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 12, size=n_queries)
    qid = np.repeat(np.arange(n_queries), sizes)
    label = rng.integers(0, 4, size=qid.size).astype(float)
    label[qid < 5] = 0.0  # five queries with an empty ground truth
    score = rng.permutation(qid.size).astype(float)  # no ties: one predicted order
    doc = np.arange(qid.size, dtype=float)  # document ids, unique
    return qid, label, score, doc


def _spark_rows(qid, label, score, doc, top=None):
    """(predicted ids in rank order, relevant ids) per query, as Spark takes them."""
    rows = []
    for q in np.unique(qid):
        mine = qid == q
        ranked = doc[mine][np.argsort(-score[mine], kind="stable")]
        rows.append((ranked[:top].tolist(), doc[mine][label[mine] > 0].tolist()))
    return rows


@pytest.mark.parametrize("k", [1, 3, 5, 10])
def test_spark_preset_equals_ranking_evaluator(spark, k):
    from pyspark.ml.evaluation import RankingEvaluator

    qid, label, score, doc = _queries(k)
    assert np.unique(qid).size >= 40 and (label[qid < 5] == 0).all()
    frame = spark.createDataFrame(
        _spark_rows(qid, label, score, doc), "prediction array<double>, label array<double>"
    )
    expected = RankingEvaluator(metricName="ndcgAtK", k=k).evaluate(frame)
    got = ndcg_score(label, score, qid=qid, k=k, **CONVENTIONS["spark"])
    assert abs(got - expected) < 1e-12
    # the same through sklearn_ndcg.spark, on the long-format frame
    long = spark.createDataFrame(
        [(int(q), float(y), float(s)) for q, y, s in zip(qid, label, score)],
        "qid bigint, label double, score double",
    )
    assert abs(ndcg_spark.ndcg_score(long, k=k, **CONVENTIONS["spark"]) - expected) < 1e-12
    # graded labels matter to the default options, not to Spark's
    assert abs(ndcg_score(label, score, qid=qid, k=k) - expected) > 1e-3


@pytest.mark.parametrize("k", [2, 5])
def test_spark_preset_with_a_pool_equals_ranking_metrics(spark, k):
    """Spark given only the top 3 predictions: relevant ids not predicted still count in
    the ideal DCG, as a judgment pool of the relevant documents does."""
    from pyspark.mllib.evaluation import RankingMetrics

    qid, label, score, doc = _queries(10 + k)
    rows = _spark_rows(qid, label, score, doc, top=3)
    expected = RankingMetrics(spark.sparkContext.parallelize(rows, 2)).ndcgAt(k)
    top = np.zeros(qid.size, dtype=bool)
    for q in np.unique(qid):  # the top 3 rows of each query
        mine = np.flatnonzero(qid == q)
        top[mine[np.argsort(-score[mine], kind="stable")[:3]]] = True
    pool = JudgmentPool(qid, label)
    per_query = query_scores(
        label[top],
        score[top],
        qid=qid[top],
        k=k,
        pool=pool,
        missing_queries="zero",
        **CONVENTIONS["spark"],
    )
    assert per_query.qid.size == np.unique(qid).size
    assert abs(per_query.score.mean() - expected) < 1e-12


def test_graded_relevance_is_dropped_by_pyspark(spark):
    """The defect the docs describe: PySpark's RankingMetrics with relevance values returns
    the binary result (Spark documents graded relevance since 3.4)."""
    from pyspark.mllib.evaluation import RankingMetrics

    qid, label, score, doc = _queries(3, n_queries=12)
    binary, graded = [], []
    for (predicted, relevant), q in zip(_spark_rows(qid, label, score, doc), np.unique(qid)):
        mine = (qid == q) & (label > 0)
        binary.append((predicted, relevant))
        graded.append((predicted, relevant, label[mine].tolist()))
    sc = spark.sparkContext
    for k in (3, 10):
        with_relevance = RankingMetrics(sc.parallelize(graded, 2)).ndcgAt(k)
        without = RankingMetrics(sc.parallelize(binary, 2)).ndcgAt(k)
        assert with_relevance == pytest.approx(without, abs=1e-15)
        graded_ndcg = ndcg_score(label, score, qid=qid, k=k, gain="exponential")
        assert abs(graded_ndcg - with_relevance) > 1e-3


def test_empty_ground_truth_scores_0_under_the_preset(spark):
    """Spark's own example (RankingMetricsSuite in apache/spark, mllib/src/test/scala/org/
    apache/spark/mllib/evaluation/RankingMetricsSuite.scala): three queries, the last with
    an empty set of relevant ids, which Spark scores 0: ndcgAt(3) = 1/3, not the 0.5 of
    the other two. A pool built by exploding the relevant-id sets has no row for that
    query; the preset's unjudged_queries="zero" scores it 0 (issue 50), and so does the
    older recipe of one pool row of label 0 (explode_outer's null document id)."""
    from pyspark.mllib.evaluation import RankingMetrics
    from pyspark.sql import functions as F

    examples = [
        ([1, 6, 2, 7, 8, 3, 9, 10, 4, 5], [1, 2, 3, 4, 5]),
        ([4, 1, 5, 6, 2, 7, 3, 8, 9, 10], [1, 2, 3]),
        ([1, 2, 3, 4, 5], []),
    ]
    expected = RankingMetrics(
        spark.sparkContext.parallelize([(p, r) for p, r in examples], 2)
    ).ndcgAt(3)
    assert expected == pytest.approx(1 / 3, abs=1e-15)
    sets = spark.createDataFrame(
        [(q, p, r) for q, (p, r) in enumerate(examples)],
        "qid long, prediction array<long>, relevant array<long>",
    )
    frame = sets.select("qid", F.posexplode("prediction").alias("rank", "docno")).select(
        "qid", F.col("docno").cast("string").alias("docno"), (-F.col("rank")).alias("score")
    )
    exploded = sets.select("qid", F.explode("relevant").alias("docno")).select(
        "qid", F.col("docno").cast("string").alias("docno"), F.lit(1.0).alias("label")
    )
    got = ndcg_spark.ndcg_score(frame, k=3, pool=exploded, **CONVENTIONS["spark"])
    assert got == pytest.approx(expected, abs=1e-15)
    # in memory: the exploded pool, and the recipe's pool (one row of label 0 for the
    # empty set); with unjudged_queries="drop" the empty one is left out, 0.5
    rows = frame.collect()
    judged = {(q, str(d)) for q, (_, r) in enumerate(examples) for d in r}
    label = [1.0 if (row["qid"], row["docno"]) in judged else np.nan for row in rows]
    pool_qid = [q for q, (_, r) in enumerate(examples) for _ in r]
    args = (label, [row["score"] for row in rows])
    kwargs = dict(qid=[row["qid"] for row in rows], k=3)
    pools = [
        JudgmentPool(pool_qid, [1.0] * len(pool_qid)),
        JudgmentPool(pool_qid + [2], [1.0] * len(pool_qid) + [0.0]),
    ]
    for pool in pools:
        in_memory = ndcg_score(*args, pool=pool, **kwargs, **CONVENTIONS["spark"])
        assert in_memory == pytest.approx(expected, abs=1e-15)
    left_out = ndcg_score(
        *args, pool=pools[0], **kwargs, **{**CONVENTIONS["spark"], "unjudged_queries": "drop"}
    )
    assert left_out == pytest.approx(0.5, abs=1e-15)


SPARK_EXAMPLE = [  # RankingMetricsSuite's three queries; the last has no relevant id
    ([1, 6, 2, 7, 8, 3, 9, 10, 4, 5], [1, 2, 3, 4, 5]),
    ([4, 1, 5, 6, 2, 7, 3, 8, 9, 10], [1, 2, 3]),
    ([1, 2, 3, 4, 5], []),
]


def _example_in_memory():
    """Spark's example as long-format rows (ranked documents, labels 1 or NaN)."""
    qid, docno, score, label = [], [], [], []
    for q, (predicted, relevant) in enumerate(SPARK_EXAMPLE):
        qid += [q] * len(predicted)
        docno += [str(d) for d in predicted]
        score += [-float(rank) for rank in range(len(predicted))]
        label += [1.0 if d in relevant else np.nan for d in predicted]
    return np.array(qid), np.array(docno), np.array(score), np.array(label)


@pytest.mark.parametrize("k", [1, 3, 5, 10])
def test_empty_ground_truth_per_query_equals_ranking_metrics(spark, k):
    """query_scores with the recipe's pool (one row of label 0 for the empty set) gives
    each query Spark's value, the empty one 0, against RankingMetrics of each query alone
    and of the three."""
    from pyspark.mllib.evaluation import RankingMetrics

    sc = spark.sparkContext
    mean = RankingMetrics(sc.parallelize(SPARK_EXAMPLE, 2)).ndcgAt(k)
    # each non-empty query alone (a frame of the empty one alone has no type for its set)
    expected = [RankingMetrics(sc.parallelize([row], 1)).ndcgAt(k) for row in SPARK_EXAMPLE[:2]]
    expected.append(3 * mean - sum(expected))  # the empty one's share of the mean
    assert abs(expected[2]) < 1e-15
    qid, _, score, label = _example_in_memory()
    pool_qid = [q for q, (_, r) in enumerate(SPARK_EXAMPLE) for _ in r] + [2]
    pool = JudgmentPool(pool_qid, [1.0] * (len(pool_qid) - 1) + [0.0])
    per_query = query_scores(label, score, qid=qid, k=k, pool=pool, **CONVENTIONS["spark"])
    assert per_query.qid.tolist() == [0, 1, 2]
    np.testing.assert_allclose(per_query.score, expected, rtol=0, atol=1e-15)
    assert per_query.score[2] == 0.0
    assert per_query.score.mean() == pytest.approx(mean, abs=1e-15)


def test_missing_queries_zero_does_not_bring_back_an_empty_ground_truth(spark):
    """missing_queries="zero" scores the pool's queries that the ranking lacks (trec_eval's
    -c), not the ranking's queries that the pool lacks: with a pool exploded from the
    sets (no row for the empty one) and unjudged_queries="drop", the mean stays 0.5, in
    memory and through sklearn_ndcg.spark; the preset's unjudged_queries="zero" gives
    Spark's value."""
    from pyspark.mllib.evaluation import RankingMetrics
    from pyspark.sql import functions as F

    expected = RankingMetrics(spark.sparkContext.parallelize(SPARK_EXAMPLE, 2)).ndcgAt(3)
    qid, _, score, label = _example_in_memory()
    pool_qid = [q for q, (_, r) in enumerate(SPARK_EXAMPLE) for _ in r]
    exploded = JudgmentPool(pool_qid, [1.0] * len(pool_qid))
    dropping = {**CONVENTIONS["spark"], "unjudged_queries": "drop"}
    for missing in ("drop", "zero"):
        got = query_scores(
            label, score, qid=qid, k=3, pool=exploded, missing_queries=missing, **dropping
        )
        assert got.qid.tolist() == [0, 1]
        assert got.score.mean() == pytest.approx(0.5, abs=1e-15) != expected
        got = query_scores(
            label, score, qid=qid, k=3, pool=exploded, missing_queries=missing,
            **CONVENTIONS["spark"],
        )  # fmt: skip
        assert got.qid.tolist() == [0, 1, 2]
        assert got.score.mean() == pytest.approx(expected, abs=1e-15)
    sets = spark.createDataFrame(
        [(q, p, r) for q, (p, r) in enumerate(SPARK_EXAMPLE)],
        "qid long, prediction array<long>, relevant array<long>",
    )
    frame = sets.select("qid", F.posexplode("prediction").alias("rank", "docno")).select(
        "qid", F.col("docno").cast("string").alias("docno"), (-F.col("rank")).alias("score")
    )
    pool = sets.select("qid", F.explode("relevant").alias("docno")).select(
        "qid", F.col("docno").cast("string").alias("docno"), F.lit(1.0).alias("label")
    )
    got = ndcg_spark.ndcg_score(frame, k=3, pool=pool, missing_queries="zero", **dropping)
    assert got == pytest.approx(0.5, abs=1e-15)
