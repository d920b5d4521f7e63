/* The supply's budget: every frame is scaled down to it when over (hardware/power.py is the model). */
#ifndef POWER_H
#define POWER_H
#include <stdint.h>
#include "geometry.h"

#ifndef CURRENT_LIMIT_MA
#define CURRENT_LIMIT_MA DEFAULT_CURRENT_LIMIT_MA /* a USB 2.0 port; make CURRENT_LIMIT_MA=... */
#endif
/* what the board draws with every LED dark: the controller and each WS2812B's own chip */
#define DARK_MA (CONTROLLER_MA + (uint32_t)LED_COUNT * LED_IDLE_UA / 1000)
#if CURRENT_LIMIT_MA <= CONTROLLER_MA + LED_COUNT * LED_IDLE_UA / 1000
#error "CURRENT_LIMIT_MA is below what the board draws with every LED dark"
#endif
#if CURRENT_LIMIT_MA > 60000
#error "CURRENT_LIMIT_MA above 60000 mA"
#endif
/* the largest sum of channel values (0..255 each) a frame may have; at most 65535 (a limit of
 * about 5.5 A: a smaller budget is only safer) so that the scale factor keeps 16 bits */
#define LIGHT_BUDGET_MA ((uint32_t)(CURRENT_LIMIT_MA - DARK_MA) * 255u / LED_CHANNEL_MA)
#define LIGHT_BUDGET (LIGHT_BUDGET_MA < 65535u ? LIGHT_BUDGET_MA : 65535u)

/* Scales the GRB buffer by floor(LIGHT_BUDGET * 65536 / sum) / 65536 when its sum is over the budget. */
void power_limit(uint8_t *buf, uint16_t bytes);
#endif
