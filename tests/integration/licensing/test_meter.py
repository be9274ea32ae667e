# SPDX-License-Identifier: GPL-2.0-only
"""Meter arithmetic against model time: after a power cycle the counters
of an active metered licence count powered-up time in the certificate's
unit; meter_current is live, meter_certificate the copy latched at each
8-hour boundary.  Model time is moved with `sdsi-emu ctl advance`; the
wall-clock time the test itself takes bounds the rest."""
from licplatform import Stopwatch

HOUR = 3600
LATCH = 8 * HOUR


def counters(cert):
    return dict(cert.pairs)


def units(seconds, cert):
    return seconds * 1000 // cert.unit_ms


def assert_counts(cert, seconds, slack, codes):
    """Every counter (MMRC and each code) within [seconds, seconds + slack]
    of powered-up time, in units."""
    low, high = units(seconds, cert), units(seconds + slack, cert)
    assert low <= cert.mmrc_counter <= high, (cert.mmrc_counter, low, high)
    got = counters(cert)
    assert sorted(got) == sorted(codes)
    for code in codes:
        assert low <= got[code] <= high, (code, got[code], low, high)


def test_meter_counts_model_time(platform, authority):
    ppin = platform.ppin(0)
    assert platform.write(0, 'provision_akc', authority.akc().data) == 'ok'
    cap = authority.cap(ppin, features=('CC02', 'SG01'), kind='metered')
    assert platform.write(0, 'provision_cap', cap.data) == 'ok'

    clock = Stopwatch()
    platform.power_cycle(0)
    advanced = HOUR
    platform.advance(HOUR, 0)
    live = platform.meter(0, current=True)
    assert live.ppin == ppin and live.unit_ms > 0
    assert_counts(live, advanced, clock.seconds(), ('CC02', 'SG01'))

    # Nothing latched before the first 8 hours of powered-up time.
    latched = platform.meter(0)
    assert latched.mmrc_counter == 0
    assert all(counters(latched).get(code, 0) == 0
               for code in ('CC02', 'SG01')), latched.pairs

    # Socket 1 was not advanced.
    assert platform.meter(1, current=True).mmrc_counter < units(HOUR, live)

    # Just short of 8 hours, whatever the wall clock added: still nothing.
    step = LATCH - advanced - clock.seconds() - 1
    advanced += step
    platform.advance(step, 0)
    assert platform.meter(0).mmrc_counter == 0, 'latched before 8 hours'

    # Past the boundary: the copy holds exactly 8 hours, the live meter more.
    step = clock.seconds() + 1
    advanced += step
    platform.advance(step, 0)
    assert_counts(platform.meter(0), LATCH, 0, ('CC02', 'SG01'))
    advanced += HOUR
    platform.advance(HOUR, 0)
    assert_counts(platform.meter(0), LATCH, 0, ('CC02', 'SG01'))
    assert_counts(platform.meter(0, current=True), advanced, clock.seconds(),
                  ('CC02', 'SG01'))


def test_meter_restarts_at_power_cycle(platform, authority):
    assert platform.write(0, 'provision_akc', authority.akc().data) == 'ok'
    cap = authority.cap(platform.ppin(0), features=('MT01',), kind='metered')
    assert platform.write(0, 'provision_cap', cap.data) == 'ok'
    platform.power_cycle(0)
    platform.advance(LATCH + HOUR, 0)
    assert counters(platform.meter(0))['MT01'] == units(LATCH,
                                                       platform.meter(0))
    clock = Stopwatch()
    platform.power_cycle(0)
    platform.advance(HOUR, 0)
    assert_counts(platform.meter(0, current=True), HOUR, clock.seconds(),
                  ('MT01',))
