/* Nested unless: the outermost escape comes first (SPIN 6.5.2 without -J).
   b is 1 from the start, so at every location of the inner body both escapes
   are executable; the outer one is taken and x never becomes 1.
   Stock pan (-DNOREDUCE): no error; with pan -J (innermost first): error.
   promela.py models the default only. */
byte b = 1, x, a;
active proctype P() {
  { { a = 1; a = 2 } unless { d_step { (b == 1) -> x = 1 } }; a = 3 } unless { d_step { (b == 1) -> x = 2 } }
}
ltl h { [] !(x == 1) }
