# SPDX-License-Identifier: GPL-2.0-only
"""Meter arithmetic against model time (docs/model.md, meter certificate):
MMRC counts powered-up time and each feature code the time a metered
licence with that code was in effect, in the certificate's unit, rounded
down; neither resets at a power cycle or a restart.  meter_current is live,
meter_certificate the copy latched at each 8-hour boundary of powered-up
time.  Model time is moved with `sdsi-emu ctl advance`; the wall-clock time
the test takes bounds what the model added on its own."""
import time

from sdsikit.licplatform import Stopwatch

HOUR = 3600
LATCH = 8 * HOUR


def counters(cert):
    return dict(cert.pairs)


def units(seconds, cert):
    return max(seconds, 0) * 1000 // cert.unit_ms


def within(value, low, high, cert, what):
    lo, hi = units(low, cert), units(high, cert)
    assert lo <= value <= hi, f'{what}: {value} not in [{lo}, {hi}]'


def metered_platform(platform, authority, codes):
    """Socket 0 with a metered licence for codes, in effect from a power
    cycle; returns a stopwatch started just before that power cycle."""
    assert platform.write(0, 'provision_akc', authority.akc().data) == 'ok'
    cap = authority.cap(platform.ppin(0), features=codes, kind='metered')
    assert platform.write(0, 'provision_cap', cap.data) == 'ok'
    assert platform.meter(0, current=True).pairs == [], \
        'metered before the power cycle that activates it'
    clock = Stopwatch()
    platform.power_cycle(0)
    return clock


def test_meter_counts_model_time(platform, authority):
    codes = ('CC02', 'SG01')
    since_cycle = metered_platform(platform, authority, codes)
    advanced = HOUR
    platform.advance(HOUR, 0)
    live = platform.meter(0, current=True)
    assert live.ppin == platform.ppin(0) and live.unit_ms > 0
    assert sorted(counters(live)) == sorted(codes)
    for code in codes:
        within(counters(live)[code], advanced,
               advanced + since_cycle.seconds(), live, code)
    within(live.mmrc_counter, advanced, advanced + platform.up.seconds(),
           live, 'MMRC')

    # Nothing latched before the first 8 hours of powered-up time.
    latched = platform.meter(0)
    assert latched.mmrc_counter == 0
    assert all(counters(latched).get(code, 0) == 0 for code in codes), \
        latched.pairs

    # Socket 1 was not advanced.
    assert platform.meter(1, current=True).mmrc_counter < units(HOUR, live)

    # Just short of 8 hours, whatever the wall clock added: still nothing.
    step = LATCH - advanced - platform.up.seconds() - 1
    advanced += step
    platform.advance(step, 0)
    assert platform.meter(0).mmrc_counter == 0, 'latched before 8 hours'

    # Past the boundary: MMRC holds exactly 8 hours; each code 8 hours less
    # the time before the power cycle that put its licence in effect.
    step = platform.up.seconds() + 1
    advanced += step
    platform.advance(step, 0)
    latched = platform.meter(0)
    assert latched.mmrc_counter == units(LATCH, latched)
    for code in codes:
        within(counters(latched)[code], LATCH - platform.up.seconds(), LATCH,
               latched, f'latched {code}')

    # The copy stays until the next boundary; the live meter goes on.
    advanced += HOUR
    platform.advance(HOUR, 0)
    assert platform.meter(0) == latched
    live = platform.meter(0, current=True)
    for code in codes:
        within(counters(live)[code], advanced,
               advanced + since_cycle.seconds(), live, code)
    within(live.mmrc_counter, advanced, advanced + platform.up.seconds(),
           live, 'MMRC')


def test_meters_survive_power_cycle_and_restart(start, authority):
    first = start('--sockets', 1)
    metered_platform(first, authority, ('MT01',))
    first.advance(LATCH + HOUR)
    before = first.meter(0, current=True)
    latched = first.meter(0)
    assert counters(latched)['MT01'] > 0

    clock = Stopwatch()
    first.power_cycle(0)
    after = first.meter(0, current=True)
    counted, now = counters(before)['MT01'], counters(after)['MT01']
    assert counted <= now <= counted + units(clock.seconds(), after), \
        'a power cycle reset the meter'
    assert after.mmrc_counter >= before.mmrc_counter
    assert first.meter(0) == latched, 'a power cycle changed the latched copy'
    assert first.stop() == 0

    second = start('--sockets', 1)
    again = second.meter(0, current=True)
    assert counters(again)['MT01'] >= counters(after)['MT01']
    assert again.mmrc_counter >= after.mmrc_counter
    assert second.meter(0) == latched, 'a restart changed the latched copy'
    second.advance(HOUR)
    later = second.meter(0, current=True)
    assert counters(later)['MT01'] >= counters(again)['MT01'] + \
        units(HOUR, later)


def test_time_scale_accelerates_meters(start, authority):
    """--time-scale 3600: an hour of model time per wall-clock second."""
    platform = start('--sockets', 1, '--time-scale', 3600)
    clock = metered_platform(platform, authority, ('MT01',))
    time.sleep(1.0)
    live = platform.meter(0, current=True)
    within(counters(live)['MT01'], HOUR, HOUR * clock.seconds(), live,
           'MT01 after one accelerated second')
