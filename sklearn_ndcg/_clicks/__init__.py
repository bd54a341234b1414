"""Click logs: position bias and counterfactual DCG."""
