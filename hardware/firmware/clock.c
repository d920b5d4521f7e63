/* Milliseconds since power-up, and the reset cause kept from before .bss is cleared. */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/wdt.h>
#include "clock.h"

uint8_t reset_flags __attribute__((section(".noinit"))); /* set in .init3, before .bss is cleared */
static volatile uint8_t tick8; /* 1 ms ticks; an 8-bit ISR keeps the strip's pixel gaps short */
static uint32_t ticks_ms;
static uint8_t tick8_seen;

/* Keeps the watchdog off across a watchdog reset (it stays enabled otherwise). */
void early_wdt_off(void) __attribute__((naked, used, section(".init3")));
void early_wdt_off(void)
{
    reset_flags = MCUSR;
    MCUSR = 0;
    wdt_disable();
}

ISR(TIMER1_COMPA_vect) { tick8++; }

uint32_t millis(void)
{
    /* the main loop runs far more often than every 255 ms, so the 8-bit count never laps */
    uint8_t now = tick8;
    ticks_ms += (uint8_t)(now - tick8_seen);
    tick8_seen = now;
    return ticks_ms;
}

void clock_init(void)
{
    TCCR1A = 0;
    TCCR1B = _BV(WGM12) | _BV(CS11) | _BV(CS10); /* CTC, clk/64 */
    OCR1A = F_CPU / 64 / 1000 - 1;                /* 1 ms */
    TIMSK1 = _BV(OCIE1A);
}
