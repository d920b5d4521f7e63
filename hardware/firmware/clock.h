/* Milliseconds since power-up (Timer1, 1 ms ticks) and why the chip last reset. */
#ifndef CLOCK_H
#define CLOCK_H
#include <stdint.h>

void clock_init(void);
uint32_t millis(void);
extern uint8_t reset_flags; /* MCUSR at boot: power-on, external (DTR), brown-out, watchdog */
#endif
