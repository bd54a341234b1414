"""Model selection: scorers (``_scorer``), the ``RankingEvaluator`` meta-estimator
(``_evaluator``), the group splitter (``_splitter``), scores from an estimator
(``_response``), query ids in a column of X (``_qid_column``), early stopping
(``_early_stopping``) and one adapter per learner library (``_learners``: query
form, weights, cloning and early stopping of LightGBM, XGBoost, CatBoost and
scikit-learn models)."""
