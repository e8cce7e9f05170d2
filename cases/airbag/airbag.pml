/*
 * Airbag control unit: the industrial case study of Leitner-Fischer & Leue,
 * "Causality Checking for Complex System Models" (VMCAI 2013), section 4.2, written
 * from the paper's description (TRW's model is not public).
 *
 * Two acceleration sensors deliver noisy readings; a microcontroller runs a crash
 * evaluation every cycle (a plausibility check of the two sensors and a crash
 * integrator).  The squib fires when current flows through it: the FET (power
 * stage) conducts AND the firing ASIC (FASIC) drives its output high.  The FASIC must
 * be armed before it can be fired.  In the scenario analysed there is no crash: the
 * hazard is an inadvertent deployment.
 *
 * Events (labels): the faults FASICShortage (the squib line is shorted: it fires at
 * once), FETStuckHigh (the FET conducts for good), FASICStuckHigh (the FASIC output is
 * stuck high), MicroControllerFailure (the controller's crash evaluation breaks and
 * it runs its deployment sequence), and the controller's commands enableFET,
 * armFASIC, fireFASIC.  Design facts that make orders matter:
 *   - a FASIC output that goes stuck high while the FET does not conduct is detected
 *     by the FASIC's own supply monitor, which switches to its redundant driver: the
 *     stuck output is masked, firing still works when commanded;
 *   - a failing controller reads the FET's state at the moment it fails and skips
 *     enableFET when the FET already conducts.
 * Sensor values, the evaluation filter and the cycle counter are unlabelled: they
 * make the state space realistic (of the order of the paper's 155,464 states) and
 * are silent for causality.
 */
#ifndef NOISE
#define NOISE 4       /* sensor readings 0..NOISE without a crash (bench/growth.sh varies it) */
#endif
#define THRESHOLD 12  /* integrator level of a crash */
#define CYCLES 6      /* evaluation cycles between plausibility resets */

byte accel1, accel2;         /* latest sensor readings */
byte integ;                  /* crash integrator */
byte cycle;                  /* evaluation cycle counter */
bool crash_detected;
bool mc_failed, skip_enable;
bool fet_enabled, fet_stuck;
bool fasic_armed, fasic_fired, fasic_stuck, fasic_masked;
bool deployed;

/* Current through the squib: FET conducts and FASIC output high (fired, or stuck
 * and not masked). */
inline check_squib() {
    if
    :: (fet_enabled || fet_stuck) && (fasic_fired || (fasic_stuck && !fasic_masked)) ->
       deployed = true
    :: else -> skip
    fi
}

active proctype Sensor1()
{
end:
    do
    :: d_step { accel1 < NOISE -> accel1++ }
    :: d_step { accel1 > 0 -> accel1-- }
    od
}

active proctype Sensor2()
{
end:
    do
    :: d_step { accel2 < NOISE -> accel2++ }
    :: d_step { accel2 > 0 -> accel2-- }
    od
}

/* The microcontroller: crash evaluation, or, once failed, its deployment sequence. */
active proctype Controller()
{
end:
    do
    :: !mc_failed ->
       d_step {
           /* plausibility: both sensors must agree; the integrator rises with
            * their common level and decays otherwise */
           if
           :: accel1 + accel2 > NOISE && accel1 > 2 && accel2 > 2 -> integ = integ + 1
           :: else -> if :: integ > 0 -> integ = integ - 1 :: else -> skip fi
           fi;
           cycle = (cycle + 1) % CYCLES;
           if :: cycle == 0 -> integ = 0 :: else -> skip fi;
           crash_detected = integ >= THRESHOLD
       }
    :: mc_failed -> break
    od;
    if
    :: skip_enable -> skip
    :: else -> enableFET: d_step { fet_enabled = true; check_squib() }
    fi;
    armFASIC: fasic_armed = true;
    fireFASIC: d_step { fasic_armed -> fasic_fired = true; check_squib() }
}

/* Random hardware faults, each at most once, at any time. */
active proctype Faults()
{
    bool f1, f2, f3, f4;
end:
    do
    :: !f1 -> f1 = true; FASICShortage: deployed = true
    :: !f2 -> f2 = true; FETStuckHigh: d_step { fet_stuck = true; check_squib() }
    :: !f3 -> f3 = true;
       FASICStuckHigh: d_step {
           fasic_stuck = true;
           if :: !(fet_enabled || fet_stuck) -> fasic_masked = true :: else -> skip fi;
           check_squib()
       }
    :: !f4 -> f4 = true;
       MicroControllerFailure: d_step { mc_failed = true; skip_enable = fet_enabled || fet_stuck }
    od
}

ltl no_inadvertent_deployment { [] !deployed }
