/* Wire constants of the board protocol; hardware/PROTOCOL.md is the reference. */
#ifndef PROTOCOL_H
#define PROTOCOL_H

#define PROTOCOL_MAJOR 1
#define PROTOCOL_MINOR 1
#define FIRMWARE_MAJOR 1
#define FIRMWARE_MINOR 2 /* 1.2: TEST and the current limiter (FEATURE_TEST) */
#define FIRMWARE_PATCH 0

/* Host -> board requests; the reply type is the request type | 0x80. */
#define MSG_HELLO     0x01
#define MSG_SET_STATE 0x02
#define MSG_READBACK  0x03
#define MSG_STATUS    0x04
#define MSG_PING      0x05
#define MSG_BYE       0x06 /* 1.1: the host leaves on purpose */
#define MSG_PEG       0x07 /* 1.1: track, points */
#define MSG_UNDO      0x08 /* 1.1: track (0xFF: the track pegged last) */
#define MSG_TEST      0x09 /* 1.1 + FEATURE_TEST: a test pattern (mode, r, g, b, index) */
#define MSG_REPLY     0x80
#define MSG_HEARTBEAT 0xC0 /* board -> host, unsolicited, seq counts heartbeats */
#define MSG_BUTTON    0xC1 /* 1.1: board -> host, unsolicited: a button was pressed */
#define MSG_NAK       0xFF /* payload: reason, then detail */

#define NAK_VERSION      1
#define NAK_LENGTH       2
#define NAK_VALUE        3
#define NAK_UNKNOWN_TYPE 4
#define NAK_NO_HELLO     5

#define ANIM_NONE 0
#define ANIM_WIN  1
#define ANIM_SKUNK 2        /* 1.1 */
#define ANIM_DOUBLE_SKUNK 3 /* 1.1 */
#define UNDO_LAST_PEGGED 0xFF
#define BUTTON_PLUS1 1
#define BUTTON_PLUS2 2
#define BUTTON_UNDO  3
#define NO_DEALER 0xFF
#define BUTTON_TESTING 6 /* a BUTTON event's result while a test pattern shows: seen, not applied */

#define TEST_END   0 /* back to the state */
#define TEST_LED   1 /* r, g, b, index u16: that one LED of the strip */
#define TEST_TRACK 2 /* r, g, b, track: every LED of the track (start, holes, game, dealer, games) */
#define TEST_ALL   3 /* r, g, b: every LED */

#define MAX_PAYLOAD   68 /* a read-back chunk of 64 LED bytes plus its offset */
#define READBACK_MAX  64
#define HOST_TIMEOUT_MS 3000
#define HEARTBEAT_MS    1000

#define FLAG_HELLO_SEEN 0x01
#define FLAG_HOST_LOST  0x02
#define FLAG_ANIMATING  0x04
#define FLAG_HAS_STATE  0x08
#define FLAG_RESTORED   0x10 /* 1.1: showing the state kept in EEPROM; no host has confirmed it */
#define FLAG_HOST_LEFT  0x20 /* 1.1: the host said goodbye: idle, not lost */
#define FLAG_TESTING    0x40 /* FEATURE_TEST: a test pattern shows instead of the state */

/* 1.1: HELLO reply, after the geometry name's terminating 0x00 */
#define FEATURE_EEPROM  0x01
#define FEATURE_BUTTONS 0x02
#define FEATURE_GAMES   0x04 /* games won, short game, skunk animations, PEG/UNDO */
#define FEATURE_TEST    0x08 /* the frame limiter (its budget after the flags) and TEST */

#define SAVE_AFTER_MS 5000 /* the state is written to EEPROM once unchanged this long */

#endif
