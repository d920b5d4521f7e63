/* Buttons on D8..D12 (PB0..PB4) and A0..A3 (PC0..PC3): D13 is avoided, the Nano's LED on it
 * would pull its pin low against the pull-up. A board without buttons reads all released. */
#include <avr/io.h>
#include "buttons.h"

static uint16_t stable_mask; /* debounced, bit i = button i */
static uint8_t count[BUTTONS];
static uint16_t pending;

#define PORTB_MASK 0x1F
#define PORTC_MASK 0x0F

void buttons_init(void)
{
    DDRB &= (uint8_t)~PORTB_MASK;
    PORTB |= PORTB_MASK;
    DDRC &= (uint8_t)~PORTC_MASK;
    PORTC |= PORTC_MASK;
}

static uint16_t raw_pressed(void)
{
    uint16_t levels = (uint16_t)(PINB & PORTB_MASK) | (uint16_t)(PINC & PORTC_MASK) << 5;
    return (uint16_t)~levels & ((1u << BUTTONS) - 1); /* pressed pulls the pin low */
}

uint8_t buttons_poll(void)
{
    uint16_t raw = raw_pressed();
    for (uint8_t i = 0; i < BUTTONS; i++) {
        uint16_t bit = 1u << i;
        if ((raw & bit) == (stable_mask & bit)) {
            count[i] = 0;
        } else if (++count[i] >= DEBOUNCE_MS) {
            count[i] = 0;
            stable_mask ^= bit;
            if (raw & bit)
                pending |= bit;
        }
    }
    for (uint8_t i = 0; i < BUTTONS; i++)
        if (pending & (1u << i)) {
            pending &= (uint16_t)~(1u << i);
            return (uint8_t)(i + 1);
        }
    return 0;
}
