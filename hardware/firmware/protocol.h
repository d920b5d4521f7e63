/* Wire constants of the board protocol; hardware/PROTOCOL.md is the reference. */
#ifndef PROTOCOL_H
#define PROTOCOL_H

#define PROTOCOL_MAJOR 1
#define PROTOCOL_MINOR 0
#define FIRMWARE_MAJOR 1
#define FIRMWARE_MINOR 0
#define FIRMWARE_PATCH 0

/* Host -> board requests; the reply type is the request type | 0x80. */
#define MSG_HELLO     0x01
#define MSG_SET_STATE 0x02
#define MSG_READBACK  0x03
#define MSG_STATUS    0x04
#define MSG_PING      0x05
#define MSG_REPLY     0x80
#define MSG_HEARTBEAT 0xC0 /* board -> host, unsolicited, seq counts heartbeats */
#define MSG_NAK       0xFF /* payload: reason, then detail */

#define NAK_VERSION      1
#define NAK_LENGTH       2
#define NAK_VALUE        3
#define NAK_UNKNOWN_TYPE 4
#define NAK_NO_HELLO     5

#define ANIM_NONE 0
#define ANIM_WIN  1
#define NO_DEALER 0xFF

#define MAX_PAYLOAD   68 /* a read-back chunk of 64 LED bytes plus its offset */
#define READBACK_MAX  64
#define HOST_TIMEOUT_MS 3000
#define HEARTBEAT_MS    1000

#define FLAG_HELLO_SEEN 0x01
#define FLAG_HOST_LOST  0x02
#define FLAG_ANIMATING  0x04
#define FLAG_HAS_STATE  0x08

#endif
