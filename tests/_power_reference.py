"""An exact reference for the power of the two-sided paired t-test, in mpmath (tests/stats/).

It integrates another form of the noncentral t than the package's: over the
distribution of the sample's standard deviation rather than over the normal.
With ``S = chi(nu) / sqrt(nu)``, ``nu = n - 1``, and ``lambda = d sqrt(n)``, the
statistic ``(Z + lambda) / S`` passes the critical value ``c`` with probability

    power = integral over s > 0 of f_S(s) * [Phi(lambda - c s) + Phi(-lambda - c s)] ds,

``f_S(s) = 2 (nu/2)^(nu/2) s^(nu-1) exp(-nu s^2 / 2) / Gamma(nu/2)``, in 30 digits,
by tanh-sinh quadrature split where the integrand turns (the bulk of ``S``,
around 1 with spread ``1 / sqrt(2 nu)``, and the steps of Phi at ``s = lambda / c``
and near 0). The critical value ``c`` is the exact t quantile: scipy's, polished in
mpmath on the t distribution's tail (the regularized incomplete beta function), since
scipy < 1.10's quantile gives a level off by up to 2e-10.
"""

import mpmath as mp
from scipy import stats


def critical_value(n, alpha, dps=30):
    """The two-sided critical value of the t-test on n queries at level alpha, exact."""
    with mp.workdps(dps):
        nu = mp.mpf(n - 1)

        def excess(c):  # P(T > c) - alpha / 2
            tail = mp.betainc(nu / 2, mp.mpf(1) / 2, 0, nu / (nu + c * c), regularized=True)
            return tail / 2 - mp.mpf(alpha) / 2

        return mp.findroot(excess, mp.mpf(float(stats.t.ppf(1 - alpha / 2, n - 1))))


def t_test_power(n, effect, alpha, dps=30):
    """Power of the two-sided paired t-test on n queries at effect size d_z, as a float."""
    with mp.workdps(dps):
        nu = mp.mpf(n - 1)
        c = critical_value(n, alpha, dps)
        shift = mp.mpf(effect) * mp.sqrt(n)
        log_constant = mp.log(2) + (nu / 2) * mp.log(nu / 2) - mp.loggamma(nu / 2)

        def integrand(s):
            if s == 0:
                density = mp.exp(log_constant) if n == 2 else mp.mpf(0)
            else:
                density = mp.exp(log_constant + (nu - 1) * mp.log(s) - nu * s * s / 2)
            return density * (mp.ncdf(shift - c * s) + mp.ncdf(-shift - c * s))

        spread = 1 / mp.sqrt(2 * nu)
        turns = [1 + k * spread for k in (-40, -10, -3, 0, 3, 10, 40)]
        turns += [shift / c + k / c for k in (-8, 0, 8)] + [8 / c]
        points = [mp.mpf(0), *sorted({p for p in turns if p > 0}), mp.inf]
        return float(mp.quad(integrand, points))
