"""Plotting: ``NDCGCurveDisplay`` (``_curve``) and ``ModelComparisonDisplay``
(``_comparison``)."""
