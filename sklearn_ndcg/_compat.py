"""The one place that imports private scikit-learn helpers."""

from sklearn.utils._param_validation import (
    Interval,
    Options,
    StrOptions,
    validate_params,
)

__all__ = ["Interval", "Options", "StrOptions", "validate_params"]
