#ifndef FRAME_H
#define FRAME_H
#include <stdint.h>
/* COBS framing with a 0x00 delimiter; body = type, seq, payload, CRC-16/CCITT-FALSE (LE). */
typedef void (*frame_handler)(uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t len);
void frame_feed(uint8_t byte, frame_handler handler);
void frame_send(uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t len);
uint16_t crc16(uint16_t crc, const uint8_t *data, uint16_t len);
extern uint16_t frame_crc_errors;     /* complete frames whose CRC did not match */
extern uint16_t frame_format_errors;  /* overlong, bad COBS, or shorter than a header */
#endif
