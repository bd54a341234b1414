"""Plotting: ``NDCGCurveDisplay`` (``_curve``), ``ModelComparisonDisplay``
(``_comparison``) and ``PositionBiasDisplay`` (``_position_bias``)."""
