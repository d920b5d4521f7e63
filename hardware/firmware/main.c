/* Crib board firmware: keeps the whole board state the host last sent and shows it.
 *
 * The main loop drains the UART ring into the frame decoder; a valid SET_STATE is checked,
 * rendered into the LED buffer and acknowledged before the strip is refreshed (the refresh is
 * skipped while newer bytes wait). Bad input only ever costs the frame it arrived in. */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/pgmspace.h>
#include <avr/sleep.h>
#include <avr/wdt.h>
#include <string.h>
#include "frame.h"
#include "geometry.h"
#include "protocol.h"
#include "uart.h"
#include "ws2812.h"

#define STATE_LEN (1 + 2 * TRACKS + 6)
#define LED_BYTES (LED_COUNT * 3)

enum { STATUS_WAITING, STATUS_CONNECTED, STATUS_LOST };

static uint8_t leds[LED_BYTES];
static uint8_t state[STATE_LEN];      /* the last good SET_STATE payload, as received */
static uint8_t has_state;
static uint8_t link_status = STATUS_WAITING;
static uint8_t hello_seen;
static uint8_t anim_frame;
static uint8_t show_pending;
static uint16_t led_crc;
static uint32_t frames_shown;
static uint16_t naks_sent;
static uint8_t heartbeat_seq;
static uint8_t reset_flags __attribute__((section(".noinit"))); /* set in .init3, before .bss is cleared */
static uint32_t last_valid_ms, last_heartbeat_ms, last_anim_ms;
static volatile uint8_t tick8; /* 1 ms ticks; an 8-bit ISR keeps the strip's pixel gaps short */
static uint32_t ticks_ms;
static uint8_t tick8_seen;

/* Keeps the watchdog off across a watchdog reset (it stays enabled otherwise). */
void early_wdt_off(void) __attribute__((naked, used, section(".init3")));
void early_wdt_off(void)
{
    reset_flags = MCUSR;
    MCUSR = 0;
    wdt_disable();
}

ISR(TIMER1_COMPA_vect) { tick8++; }

static uint32_t millis(void)
{
    /* the main loop runs far more often than every 255 ms, so the 8-bit count never laps */
    uint8_t now = tick8;
    ticks_ms += (uint8_t)(now - tick8_seen);
    tick8_seen = now;
    return ticks_ms;
}

/* --- rendering (hardware/leds.py is the host's copy of these rules) --- */
#define ST_TRACKS 0
#define ST_PEGS 1
#define ST_DEALER (1 + 2 * TRACKS)
#define ST_BRIGHTNESS (ST_DEALER + 1)
#define ST_ANIM (ST_DEALER + 2)
#define ST_ANIM_TRACK (ST_DEALER + 3)
#define ST_SKUNK (ST_DEALER + 4)
#define ST_DOUBLE_SKUNK (ST_DEALER + 5)

static uint8_t level_scale;

static uint8_t scale(uint8_t value) { return (uint8_t)(((uint16_t)value * (uint16_t)(level_scale + 1)) >> 8); }
static uint8_t dim(uint8_t value) { return value ? (value >> 2 ? value >> 2 : 1) : 0; }

static void set_led(uint16_t led, uint8_t r, uint8_t g, uint8_t b)
{
    uint8_t *p = leds + led * 3;
    p[0] = g;
    p[1] = r;
    p[2] = b;
}

static void set_scaled(uint16_t led, const uint8_t *rgb_P, uint8_t shift)
{
    set_led(led, scale(pgm_read_byte(rgb_P)) >> shift, scale(pgm_read_byte(rgb_P + 1)) >> shift,
            scale(pgm_read_byte(rgb_P + 2)) >> shift);
}

static uint16_t hole_led(uint8_t track, uint8_t position) { return pgm_read_word(&HOLE_LED[track][position]); }

static void render(void)
{
    memset(leds, 0, sizeof leds);
    uint8_t level = has_state ? state[ST_BRIGHTNESS] : DEFAULT_BRIGHTNESS;
    level_scale = pgm_read_byte(&BRIGHTNESS_SCALE[level - 1]);
    if (has_state) {
        for (uint8_t t = 0; t < TRACKS; t++) {
            if (state[ST_SKUNK])
                set_scaled(hole_led(t, state[ST_SKUNK] + 1), SKUNK_MARKER_RGB, 0);
            if (state[ST_DOUBLE_SKUNK])
                set_scaled(hole_led(t, state[ST_DOUBLE_SKUNK] + 1), DOUBLE_SKUNK_MARKER_RGB, 0);
        }
        if (state[ST_DEALER] != NO_DEALER)
            set_scaled(pgm_read_word(&DEALER_LED[state[ST_DEALER]]), TRACK_RGB[state[ST_DEALER]], 0);
        for (uint8_t t = 0; t < TRACKS; t++) {
            uint8_t r = scale(pgm_read_byte(&TRACK_RGB[t][0]));
            uint8_t g = scale(pgm_read_byte(&TRACK_RGB[t][1]));
            uint8_t b = scale(pgm_read_byte(&TRACK_RGB[t][2]));
            set_led(hole_led(t, state[ST_PEGS + 2 * t + 1]), dim(r), dim(g), dim(b));
            set_led(hole_led(t, state[ST_PEGS + 2 * t]), r, g, b);
        }
        if (state[ST_ANIM] == ANIM_WIN) {
            /* a comet running along the winner's holes 1..121, head first, tail halving */
            uint8_t head = (uint8_t)(anim_frame % GAME_HOLE + 1);
            for (uint8_t k = 0; k < WIN_TAIL && k < head; k++)
                set_scaled(hole_led(state[ST_ANIM_TRACK], head - k), WIN_HEAD_RGB, k);
        }
    }
    const uint8_t *status_rgb = link_status == STATUS_CONNECTED ? STATUS_CONNECTED_RGB
                                : link_status == STATUS_LOST    ? STATUS_LOST_RGB
                                                                : STATUS_WAITING_RGB;
    set_scaled(STATUS_LED, status_rgb, 0);
    led_crc = crc16(0xFFFF, leds, LED_BYTES);
    show_pending = 1;
}

static uint8_t state_valid(const uint8_t *s, uint8_t len)
{
    if (len != STATE_LEN || s[ST_TRACKS] != TRACKS)
        return 0;
    for (uint8_t t = 0; t < TRACKS; t++) {
        uint8_t front = s[ST_PEGS + 2 * t], back = s[ST_PEGS + 2 * t + 1];
        if (front > GAME_HOLE || back > front || (back == front && front != 0))
            return 0;
    }
    if (s[ST_DEALER] != NO_DEALER && s[ST_DEALER] >= TRACKS)
        return 0;
    if (s[ST_BRIGHTNESS] < 1 || s[ST_BRIGHTNESS] > BRIGHTNESS_LEVELS)
        return 0;
    if (s[ST_ANIM] == ANIM_NONE ? s[ST_ANIM_TRACK] != 0 : (s[ST_ANIM] != ANIM_WIN || s[ST_ANIM_TRACK] >= TRACKS))
        return 0;
    if (s[ST_SKUNK] >= GAME_HOLE - 1 || s[ST_DOUBLE_SKUNK] >= GAME_HOLE - 1)
        return 0;
    return 1;
}

/* --- requests --- */
static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }

static uint8_t flags(void)
{
    return (hello_seen ? FLAG_HELLO_SEEN : 0) | (link_status == STATUS_LOST ? FLAG_HOST_LOST : 0) |
           (has_state && state[ST_ANIM] != ANIM_NONE ? FLAG_ANIMATING : 0) | (has_state ? FLAG_HAS_STATE : 0);
}

static void nak(uint8_t seq, uint8_t reason, uint8_t detail)
{
    uint8_t p[4] = {reason, detail, PROTOCOL_MAJOR, PROTOCOL_MINOR};
    naks_sent++;
    frame_send(MSG_NAK, seq, p, sizeof p);
}

static void set_link_status(uint8_t status)
{
    if (link_status != status) {
        link_status = status;
        render();
    }
}

static void handle(uint8_t type, uint8_t seq, const uint8_t *p, uint8_t len)
{
    uint8_t out[MAX_PAYLOAD];
    last_valid_ms = millis();
    if (type == MSG_HELLO) {
        if (len < 2)
            return nak(seq, NAK_LENGTH, type);
        if (p[0] != PROTOCOL_MAJOR)
            return nak(seq, NAK_VERSION, p[0]);
        static const char name[] PROGMEM = GEOMETRY_NAME;
        out[0] = PROTOCOL_MAJOR;
        out[1] = PROTOCOL_MINOR;
        out[2] = FIRMWARE_MAJOR;
        out[3] = FIRMWARE_MINOR;
        out[4] = FIRMWARE_PATCH;
        out[5] = TRACKS;
        put16(out + 6, LED_COUNT);
        put16(out + 8, GEOMETRY_ID);
        strcpy_P((char *)out + 10, name);
        hello_seen = 1;
        frame_send(MSG_HELLO | MSG_REPLY, seq, out, (uint8_t)(10 + strlen_P(name)));
        set_link_status(STATUS_CONNECTED);
        return;
    }
    if (!hello_seen)
        return nak(seq, NAK_NO_HELLO, type);
    set_link_status(STATUS_CONNECTED);
    switch (type) {
    case MSG_SET_STATE: {
        if (len != STATE_LEN)
            return nak(seq, NAK_LENGTH, type);
        if (!state_valid(p, len))
            return nak(seq, NAK_VALUE, type);
        /* idempotent: the same state again changes nothing (an animation keeps running) */
        uint8_t same = has_state && memcmp(state, p, STATE_LEN) == 0;
        if (!same) {
            if (!has_state || state[ST_ANIM] != p[ST_ANIM] || state[ST_ANIM_TRACK] != p[ST_ANIM_TRACK]) {
                anim_frame = 0;
                last_anim_ms = millis();
            }
            memcpy(state, p, STATE_LEN);
            has_state = 1;
            render();
        }
        put16(out, crc16(0xFFFF, state, STATE_LEN));
        put16(out + 2, led_crc);
        out[4] = flags();
        frame_send(MSG_SET_STATE | MSG_REPLY, seq, out, 5);
        return;
    }
    case MSG_READBACK: {
        if (len != 3)
            return nak(seq, NAK_LENGTH, type);
        uint16_t offset = p[0] | (uint16_t)p[1] << 8;
        uint8_t count = p[2];
        if (count > READBACK_MAX || offset > LED_BYTES || count > LED_BYTES - offset)
            return nak(seq, NAK_VALUE, type);
        put16(out, offset);
        memcpy(out + 2, leds + offset, count);
        frame_send(MSG_READBACK | MSG_REPLY, seq, out, (uint8_t)(count + 2));
        return;
    }
    case MSG_STATUS: {
        if (len != 0)
            return nak(seq, NAK_LENGTH, type);
        out[0] = flags();
        put32(out + 1, millis());
        put16(out + 5, led_crc);
        put32(out + 7, frames_shown);
        put16(out + 11, frame_crc_errors);
        put16(out + 13, frame_format_errors);
        put16(out + 15, uart_rx_overflows);
        put16(out + 17, naks_sent);
        out[19] = reset_flags;
        out[20] = has_state ? STATE_LEN : 0;
        memcpy(out + 21, state, has_state ? STATE_LEN : 0);
        frame_send(MSG_STATUS | MSG_REPLY, seq, out, (uint8_t)(21 + out[20]));
        return;
    }
    case MSG_PING: {
        put32(out, millis());
        put16(out + 4, led_crc);
        out[6] = flags();
        frame_send(MSG_PING | MSG_REPLY, seq, out, 7);
        return;
    }
    default:
        return nak(seq, NAK_UNKNOWN_TYPE, type);
    }
}

static void periodic(void)
{
    uint32_t now = millis();
    if (hello_seen && link_status == STATUS_CONNECTED && now - last_valid_ms > HOST_TIMEOUT_MS)
        set_link_status(STATUS_LOST); /* the pegs stay as they were */
    if (hello_seen && now - last_heartbeat_ms >= HEARTBEAT_MS) {
        uint8_t p[7];
        last_heartbeat_ms = now;
        put32(p, now);
        put16(p + 4, led_crc);
        p[6] = flags();
        frame_send(MSG_HEARTBEAT, heartbeat_seq++, p, sizeof p);
    }
    if (has_state && state[ST_ANIM] != ANIM_NONE && now - last_anim_ms >= WIN_FRAME_MS) {
        last_anim_ms = now;
        anim_frame++;
        render();
    }
}

int main(void)
{
    wdt_enable(WDTO_2S);
    uart_init();
    ws2812_init();
    TCCR1A = 0;
    TCCR1B = _BV(WGM12) | _BV(CS11) | _BV(CS10); /* CTC, clk/64 */
    OCR1A = F_CPU / 64 / 1000 - 1;                /* 1 ms */
    TIMSK1 = _BV(OCIE1A);
    set_sleep_mode(SLEEP_MODE_IDLE);
    sei();
    render();
    for (;;) {
        wdt_reset();
        int16_t byte;
        while ((byte = uart_get()) >= 0)
            frame_feed((uint8_t)byte, handle);
        periodic();
        cli();
        if (show_pending && uart_rx_empty()) {
            sei();
            ws2812_show(leds, LED_COUNT);
            show_pending = 0;
            frames_shown++;
            continue;
        }
        if (uart_rx_empty()) {
            sleep_enable();
            sei();
#ifndef NO_SLEEP
            sleep_cpu(); /* the 1 ms tick or a received byte wakes it */
#endif
            sleep_disable();
        }
        sei();
    }
}
