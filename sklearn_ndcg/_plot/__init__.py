"""Plotting: ``NDCGCurveDisplay`` (``_curve``), ``ModelComparisonDisplay``
(``_comparison``), ``PositionBiasDisplay`` (``_propensity``) and
``CriticalDifferenceDisplay`` (``_critical_difference``)."""
