"""The power of the two-sided paired t-test, exact at every effect, and its two inverses."""

from __future__ import annotations

import numpy as np
from scipy import integrate, optimize, special, stats

# Z beyond ±12 carries less than 1e-32 of the normal's mass
_Z_RANGE = 12.0
_LARGEST_EFFECT = 1e15
# with no effect the power is the level 2 (1 - upper); this close, rounding decides
_ROUNDING = 1e-12


def _reached_without_effect(power: float, upper: float) -> bool:
    """Whether the test has ``power`` when the models do not differ: ``power <= alpha``."""
    return power <= 2 * (1 - upper) + _ROUNDING


def _critical_value(upper: float, df: int) -> float:
    """Student's t quantile ``upper`` with ``df`` degrees of freedom, polished by one
    Newton step on its upper tail: scipy < 1.10's quantile is off by up to 2e-10
    in the level it gives (1.6e-10 at df=6, alpha=0.05), its tail is not."""
    critical = float(stats.t.ppf(upper, df))
    return critical + float(stats.t.sf(critical, df) - (1 - upper)) / float(
        stats.t.pdf(critical, df)
    )


def t_test_power(n_queries: int, effect: float, upper: float) -> float:
    """Power of the two-sided paired t-test on ``n_queries`` queries at effect size d_z.

    ``upper`` is the quantile of the critical value, ``1 - alpha / 2``.

    The statistic is noncentral t, ``T = (Z + λ) / S`` with ``λ = d_z sqrt(n)``,
    ``Z`` standard normal and ``S² ~ χ²(n - 1) / (n - 1)`` independent of it.
    ``|T| > c`` if and only if ``S² < (Z + λ)² / c²``, so the power is
    ``E_Z[F(ν (Z + λ)² / c²)]``, F the χ²(ν) distribution function, ν = n - 1:
    a smooth integral over the normal density, computed by adaptive quadrature
    with its breakpoints where the integrand turns (``Z = -λ`` and ``Z = -λ ± c``).
    It holds where scipy's noncentral t gives NaN or loses its digits (large λ);
    against a 30-digit mpmath reference it agrees to about 1e-15 (the tests check
    1e-10 over a grid of effects, numbers of queries and levels).
    """
    df = n_queries - 1
    critical = _critical_value(upper, df)
    shift = float(effect) * np.sqrt(n_queries)
    scale = df / (2 * critical * critical)

    def integrand(z):
        return np.exp(-0.5 * z * z) * special.gammainc(0.5 * df, scale * (z + shift) ** 2)

    turns = sorted({p for p in (-shift - critical, -shift, -shift + critical) if abs(p) < _Z_RANGE})
    value, _ = integrate.quad(
        integrand,
        -_Z_RANGE,
        _Z_RANGE,
        points=turns or None,
        epsabs=1e-14,
        epsrel=1e-13,
        limit=500,
    )
    return min(1.0, max(0.0, value / np.sqrt(2 * np.pi)))


def smallest_n_queries(effect: float, power: float, upper: float, largest: int) -> int | None:
    """The smallest n >= 2 whose power at ``effect`` reaches ``power``; None above ``largest``.

    The power grows with n, so an exponential search from the normal approximation
    brackets the answer and bisection on the integers finds it.
    """
    if _reached_without_effect(power, upper) or t_test_power(2, effect, upper) >= power:
        return 2
    approx = ((stats.norm.ppf(upper) + stats.norm.ppf(power)) / effect) ** 2
    guess = int(min(largest, max(3, np.ceil(approx))))
    # low: power below the target; high: power at or above it
    step = 1
    if t_test_power(guess, effect, upper) >= power:
        high, low = guess, guess - step
        while low > 2 and t_test_power(low, effect, upper) >= power:
            high, step = low, step * 2
            low = max(2, high - step)
    else:
        low, high = guess, guess + step
        while True:
            if high >= largest:
                if t_test_power(largest, effect, upper) < power:
                    return None
                high = largest
                break
            if t_test_power(high, effect, upper) >= power:
                break
            low, step = high, step * 2
            high = low + step
    while high - low > 1:
        middle = (low + high) // 2
        if t_test_power(middle, effect, upper) >= power:
            high = middle
        else:
            low = middle
    return high


def smallest_effect(n_queries: int, power: float, upper: float) -> float | None:
    """The effect size d_z the test on ``n_queries`` queries detects with ``power``.

    0 when the test reaches ``power`` with no effect at all (``power <= alpha``);
    None when no finite effect reaches it in floating point.
    """
    if _reached_without_effect(power, upper):
        return 0.0
    high = 1.0 / np.sqrt(n_queries)
    while t_test_power(n_queries, high, upper) < power:  # power grows with the effect size
        high *= 2
        if high > _LARGEST_EFFECT:
            return None
    return float(
        optimize.brentq(
            lambda e: t_test_power(n_queries, e, upper) - power,
            0.0,
            high,
            xtol=1e-14,
            rtol=1e-13,
        )
    )


def sd_upper_bound(sd: float, n_pilot: int, assurance: float) -> float:
    """The one-sided upper confidence bound, at level ``assurance``, of a standard deviation.

    ``(m - 1) s² / σ² ~ χ²(m - 1)`` for ``m`` normal values, so ``σ <= s sqrt((m - 1) /
    χ²_{1 - assurance}(m - 1))`` with probability ``assurance`` (Browne 1995).
    """
    df = n_pilot - 1
    return float(sd * np.sqrt(df / stats.chi2.ppf(1 - assurance, df)))


def bonett_sd_upper_bound(d: np.ndarray, assurance: float) -> float | None:
    """Bonett's (2006) one-sided upper confidence bound, at level ``assurance``, of the
    standard deviation of ``d``, for values that need not be normal; None below 5 values.

    ``log s²`` has variance about ``(κ - (m - 3) / m) / (m - 1)``, with the kurtosis
    ``κ = m Σ (x - t)⁴ / (Σ (x - x̄)²)²`` around the mean ``t`` trimmed by
    ``1 / (2 sqrt(m - 4))`` at each end, and the small-sample factor ``c = m / (m - z)``:
    ``σ² <= c s² exp(z c sqrt((κ - (m - 3) / m) / (m - 1)))``, ``z`` the normal
    quantile at ``assurance``.
    """
    m = d.shape[0]
    if m < 5:
        return None
    z = stats.norm.ppf(assurance)
    centred = d - d.mean()
    trimmed = stats.trim_mean(d, 1 / (2 * np.sqrt(m - 4)))
    kurtosis = m * np.sum((d - trimmed) ** 4) / np.sum(centred**2) ** 2
    c = m / (m - z)
    se = c * np.sqrt(max(kurtosis - (m - 3) / m, 0.0) / (m - 1))
    return float(np.sqrt(c * np.var(d, ddof=1) * np.exp(z * se)))


def planning_sd_upper_bound(d: np.ndarray, assurance: float) -> float:
    """The upper bound of the standard deviation of the pilot's differences ``d`` that
    planning with ``assurance`` uses: the larger of the chi-square bound
    (:func:`sd_upper_bound`, exact for normal differences) and Bonett's
    (:func:`bonett_sd_upper_bound`, which widens with the pilot's kurtosis).

    The chi-square bound alone covers the true standard deviation of skewed, tied
    per-query NDCG differences in 0.74 of pilots at ``assurance=0.8`` (0.41-0.46 with
    heavy tails); the larger of the two in 0.78-0.80 (0.54-0.58), and never less often
    than the chi-square bound on normal differences (0.81-0.82);
    ``benchmarks/bench_assurance.py``.
    """
    sd = float(np.std(d, ddof=1))
    chi2 = sd_upper_bound(sd, d.shape[0], assurance)
    bonett = bonett_sd_upper_bound(d, assurance)
    return chi2 if bonett is None else max(chi2, bonett)
