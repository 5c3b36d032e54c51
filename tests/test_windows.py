"""NumPy's window functions, against NumPy: bartlett, blackman, hamming, hanning and
kaiser, for integer and float lengths (negative and zero included)."""

import pytest
from hypothesis import given, strategies as st

from differential import check_function

pytestmark = pytest.mark.usefixtures("quiet_warnings")


@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
@given(M=st.integers(-2, 12) | st.floats(-2, 12))
def test_windows(name, M):
    check_function(name, M, atol=1e-15)


@given(M=st.integers(-1, 12), beta=st.floats(0, 20))
def test_kaiser(M, beta):
    check_function("kaiser", M, beta)

