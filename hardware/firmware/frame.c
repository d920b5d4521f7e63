/* Receiving: bytes accumulate until a 0x00; anything overlong is dropped up to the next 0x00,
 * so the decoder resynchronises on the first delimiter after garbage. */
#include <util/crc16.h>
#include "frame.h"
#include "protocol.h"
#include "uart.h"

#define MAX_BODY (2 + MAX_PAYLOAD + 2)
#define MAX_ENCODED (MAX_BODY + 2)

static uint8_t encoded[MAX_ENCODED];
static uint8_t encoded_len;
static uint8_t discarding;
uint16_t frame_crc_errors;
uint16_t frame_format_errors;

uint16_t crc16(uint16_t crc, const uint8_t *data, uint16_t len)
{
    while (len--)
        crc = _crc_xmodem_update(crc, *data++);
    return crc;
}

/* In place: the decoded body is never longer than the encoded bytes. Returns -1 on bad COBS. */
static int16_t cobs_decode(uint8_t *buf, uint8_t len)
{
    uint8_t in = 0, out = 0;
    while (in < len) {
        uint8_t code = buf[in++];
        for (uint8_t k = 1; k < code; k++) {
            if (in >= len)
                return -1;
            buf[out++] = buf[in++];
        }
        if (code != 0xFF && in < len)
            buf[out++] = 0;
    }
    return out;
}

void frame_feed(uint8_t byte, frame_handler handler)
{
    if (byte != 0) {
        if (discarding)
            return;
        if (encoded_len == MAX_ENCODED) {
            discarding = 1;
            frame_format_errors++;
            return;
        }
        encoded[encoded_len++] = byte;
        return;
    }
    uint8_t len = encoded_len;
    uint8_t was_discarding = discarding;
    encoded_len = 0;
    discarding = 0;
    if (was_discarding || len == 0)
        return; /* an empty frame is a harmless resync */
    int16_t body = cobs_decode(encoded, len);
    if (body < 4) {
        frame_format_errors++;
        return;
    }
    uint16_t crc = crc16(0xFFFF, encoded, (uint16_t)(body - 2));
    if ((uint8_t)crc != encoded[body - 2] || (uint8_t)(crc >> 8) != encoded[body - 1]) {
        frame_crc_errors++;
        return;
    }
    handler(encoded[0], encoded[1], encoded + 2, (uint8_t)(body - 4));
}

/* COBS-encodes the body straight into the transmit ring: a code byte is the distance to the
 * next zero, so each run is scanned before it is sent. */
static uint8_t body_byte(const uint8_t *head, const uint8_t *payload, uint8_t len, uint16_t crc, uint8_t i)
{
    if (i < 2)
        return head[i];
    if (i < 2 + len)
        return payload[i - 2];
    return i == 2 + len ? (uint8_t)crc : (uint8_t)(crc >> 8);
}

void frame_send(uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t len)
{
    uint8_t head[2] = {type, seq};
    uint16_t crc = crc16(0xFFFF, head, 2);
    crc = crc16(crc, payload, len);
    uint8_t total = (uint8_t)(len + 4);
    uint8_t start = 0;
    for (;;) {
        uint8_t end = start;
        while (end < total && end - start < 254 && body_byte(head, payload, len, crc, end) != 0)
            end++;
        uart_put((uint8_t)(end - start + 1));
        for (uint8_t i = start; i < end; i++)
            uart_put(body_byte(head, payload, len, crc, i));
        if (end >= total)
            break;
        /* a full 254-byte run carries no zero; otherwise skip the zero the code stood for */
        start = (uint8_t)(end - start == 254 ? end : end + 1);
    }
    uart_put(0);
}
