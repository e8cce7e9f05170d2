/*
 * A pump guarded by a sensor: the case of pancause's fault tree tests (an order that
 * is causal, an order that is not, one event shared by two causes, no never claim).
 *
 * The pump starts (Ps) and checks the sensor at that moment; the sensor may fail
 * (Sf); the valve may stick (Vs).  The hazard (the failing assert of Monitor): the
 * pump runs unchecked (it started after the sensor had failed: Sf before Ps, a PAND
 * gate), or the valve is stuck while the sensor has failed (in either order: an AND
 * gate).  Sf is one basic event shared by both gates.
 */
bool sensor_failed, pump_on, checked, valve_stuck;

active proctype Sensor()
{
Sf: sensor_failed = true
}

active proctype Pump()
{
Ps: d_step { pump_on = true; checked = !sensor_failed }
}

active proctype Valve()
{
Vs: valve_stuck = true
}

active proctype Monitor()
{
end: atomic { (pump_on && !checked) || (valve_stuck && sensor_failed) ->
        assert(!((pump_on && !checked) || (valve_stuck && sensor_failed))) }
}
