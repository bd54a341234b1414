"""Model selection: scorers (``_scorer``), the ``RankingEvaluator`` meta-estimator
(``_evaluator``), the group splitter (``_splitter``), scores from an estimator
(``_response``), query ids in a column of X (``_qid_column``) and early stopping
(``_early_stopping``)."""
