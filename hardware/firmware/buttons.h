/* Optional push buttons, three per track (+1, +2, undo), to ground, on the internal pull-ups. */
#ifndef BUTTONS_H
#define BUTTONS_H
#include <stdint.h>
#include "geometry.h"

#define BUTTONS (3 * TRACKS)
#define DEBOUNCE_MS 20 /* a contact must read the same this long */

void buttons_init(void);
/* Called once per millisecond tick; returns a newly pressed button (1 + its index) or 0.
 * Button i: track i / 3; i % 3: 0 = +1, 1 = +2, 2 = undo. */
uint8_t buttons_poll(void);
#endif
