"""The command line: ``sklearn-ndcg demo`` (``_demo``) and ``sklearn-ndcg trec-eval``
(``_trec_eval``), parsed in ``_main``."""
