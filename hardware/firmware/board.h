/* The board's state (the last SET_STATE, as 1.1 fields), pegging and undo, and its picture. */
#ifndef BOARD_H
#define BOARD_H
#include <stdint.h>
#include "geometry.h"

#define ST_TRACKS 0
#define ST_PEGS 1
#define ST_DEALER (1 + 2 * TRACKS)
#define ST_BRIGHTNESS (ST_DEALER + 1)
#define ST_ANIM (ST_DEALER + 2)
#define ST_ANIM_TRACK (ST_DEALER + 3)
#define ST_SKUNK (ST_DEALER + 4)
#define ST_DOUBLE_SKUNK (ST_DEALER + 5)
#define STATE_LEN_1_0 (ST_DEALER + 6) /* what a 1.0 host sends */
#define ST_TARGET STATE_LEN_1_0       /* 1.1: 121, or 61 for the short game (0: 121) */
#define ST_GAMES (ST_TARGET + 1)      /* 1.1: games won per track; the first GAME_LEDS are lit */
#define STATE_LEN (ST_GAMES + TRACKS)
#define LED_BYTES (LED_COUNT * 3)
#define UNDO_DEPTH 4                  /* pegs a track can take back, newest first */

enum { LOOK_WAITING, LOOK_CONNECTED, LOOK_LOST, LOOK_IDLE, LOOK_RESTORED };

extern uint8_t leds[LED_BYTES];
extern uint8_t state[STATE_LEN];
extern uint8_t has_state;
extern uint16_t led_crc;
extern uint16_t anim_frame;
extern uint8_t anim_restarted; /* set when frame 0 is drawn: the next frame is WIN_FRAME_MS later */
extern uint8_t show_pending;
extern uint8_t test_mode;      /* TEST_END (0): the state shows; else the test pattern */

/* Checks a SET_STATE payload (1.0 or longer; bytes past the 1.1 fields are ignored) and applies
 * it. Returns 0 or the NAK reason. */
uint8_t board_set(const uint8_t *p, uint8_t len, uint8_t *changed);
/* Loads a state kept in EEPROM (already checked by its CRC); 0 if it is not valid here. */
uint8_t board_restore(const uint8_t *s);
/* The newest undo of each track (its earlier back peg, 0xFF: none) and the track pegged last:
 * kept in EEPROM with the state, so "undo" works after a reset (TRACKS + 1 bytes). */
#define UNDO_SNAPSHOT_LEN (TRACKS + 1)
void board_undo_snapshot(uint8_t *out);
void board_undo_restore(const uint8_t *in);
uint8_t board_peg(uint8_t track, uint8_t points);
uint8_t board_undo(uint8_t track);
void board_animate(void);    /* the next animation frame */
void board_render(uint8_t look);
/* A TEST request: checks it and keeps the pattern (board_render draws it). 0 or the NAK reason. */
uint8_t board_test(const uint8_t *p, uint8_t len);
#endif
