"""Information retrieval: TREC runs and qrels read from files (``_trec``) and
``evaluate_run``."""
