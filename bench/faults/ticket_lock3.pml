/*
 * ticket_lock: a ticket spin lock shared by three processes.  A process takes
 * the next ticket with an atomic fetch-and-increment and waits until the
 * lock serves its ticket; releasing the lock serves the next ticket.  Tickets
 * count modulo NT, which is at least the number of processes.  Each process
 * takes the lock twice and ends.
 * Property: mutual exclusion (assertion); all processes end.
 */
#define NP 3
#define NT 4

byte next_ticket;
byte now_serving;
byte in_cs;

proctype P()
{
    byte my;
    byte round = 0;
    do
    :: (round < 2) ->
        atomic {
            my = next_ticket;
            next_ticket = (next_ticket + 1) % NT
        };
        (now_serving == my);
        in_cs++;
        assert(in_cs == 1);
        in_cs--;
        now_serving = (now_serving + 2) % NT;
        round++
    :: else ->
        break
    od
}

init {
    atomic {
        run P();
        run P();
        run P()
    }
}
