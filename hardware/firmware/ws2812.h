#ifndef WS2812_H
#define WS2812_H
#include <stdint.h>
/* Data pin: PD6 (Arduino Nano/Uno D6). */
#define WS2812_DDR  DDRD
#define WS2812_PORT PORTD
#define WS2812_BIT  6
void ws2812_init(void);
/* Sends count pixels of 3 bytes each (GRB, as stored) and latches. */
void ws2812_show(const uint8_t *grb, uint16_t count);
#endif
