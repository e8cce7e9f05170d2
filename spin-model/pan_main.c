/*
 * pan_main.c - main() of the ./pan that `make pan` links.
 *
 * The stock pan.c is compiled with -Dmain=pan_stock_main and the instrumented one
 * with -Dmain=sm_pan_main; sm_main() picks one (spin-model/sm_entry.c).
 */
#include "spinmodel.h"

int pan_stock_main(int argc, char **argv);
int sm_pan_main(int argc, char **argv);

int main(int argc, char **argv)
{
    return sm_main(argc, argv, pan_stock_main, sm_pan_main, sm_pan_refusal(), sm_pan_model());
}
