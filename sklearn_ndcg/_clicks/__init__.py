"""Model selection from click logs: counterfactual DCG, its scorer, a click simulator."""
