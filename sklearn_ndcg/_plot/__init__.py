"""Plotting: ``NDCGCurveDisplay`` (``_curve``), ``ModelComparisonDisplay``
(``_comparison``) and ``PositionBiasDisplay`` (``_propensity``)."""
