/* The frame limiter: one pass to sum, one 32-bit division, two 8x8 multiplies per byte when over.
 * Rounding every byte down keeps the scaled sum within the budget. */
#include "power.h"

void power_limit(uint8_t *buf, uint16_t bytes)
{
    uint32_t total = 0;
    for (uint16_t i = 0; i < bytes; i++)
        total += buf[i];
    if (total <= LIGHT_BUDGET)
        return;
    uint16_t factor = (uint16_t)(((uint32_t)LIGHT_BUDGET << 16) / total); /* < 65536: budget < sum */
    uint8_t high = (uint8_t)(factor >> 8), low = (uint8_t)factor;
    for (uint16_t i = 0; i < bytes; i++) {
        /* floor(b * factor / 65536) without a 32-bit multiply: b*high*256 + b*low, floored in two steps */
        uint16_t b = buf[i];
        buf[i] = (uint8_t)((b * high + ((b * low) >> 8)) >> 8);
    }
}
