"""Click logs: position bias, counterfactual DCG, its scorer, a click simulator."""
