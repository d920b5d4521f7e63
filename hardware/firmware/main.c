/* Crib board firmware: keeps the whole board state the host last sent (or a button pegged) and
 * shows it; keeps it in EEPROM across resets and power cuts.
 *
 * The main loop drains the UART ring into the frame decoder; a valid request is checked,
 * applied, rendered into the LED buffer and answered before the strip is refreshed (the refresh
 * is skipped while newer bytes wait). Bad input only ever costs the frame it arrived in.
 * Versioning: every request has a minimum length; bytes past the fields this firmware knows
 * are ignored, so a newer host's trailing fields never make it refuse a request. */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/pgmspace.h>
#include <avr/sleep.h>
#include <avr/wdt.h>
#include <string.h>
#include "board.h"
#include "buttons.h"
#include "clock.h"
#include "frame.h"
#include "power.h"
#include "protocol.h"
#include "store.h"
#include "uart.h"
#include "ws2812.h"

enum { LINK_WAITING, LINK_CONNECTED, LINK_LOST, LINK_IDLE };

static uint8_t link_status = LINK_WAITING;
static uint8_t hello_seen;
static uint8_t restored;      /* showing the EEPROM's state; cleared when a host or a button acts */
static uint8_t dirty;
static uint16_t naks_sent;
static uint32_t frames_shown;
static uint8_t out[MAX_PAYLOAD]; /* every reply is built here: replies never nest, and the stack stays small */
static uint16_t events;       /* button presses since power-up */
static uint8_t heartbeat_seq;
static uint32_t last_valid_ms, last_heartbeat_ms, last_anim_ms, changed_ms, last_tick_ms;

static void render(void)
{
    static const uint8_t LOOK[] = {LOOK_WAITING, LOOK_CONNECTED, LOOK_LOST, LOOK_IDLE};
    board_render(restored ? LOOK_RESTORED : LOOK[link_status]);
}

static void changed(void)
{
    restored = 0;
    dirty = 1;
    changed_ms = millis();
    render();
}

/* --- replies --- */
static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }

static uint8_t flags(void)
{
    return (hello_seen ? FLAG_HELLO_SEEN : 0) | (link_status == LINK_LOST ? FLAG_HOST_LOST : 0) |
           (has_state && state[ST_ANIM] != ANIM_NONE ? FLAG_ANIMATING : 0) | (has_state ? FLAG_HAS_STATE : 0) |
           (restored ? FLAG_RESTORED : 0) | (link_status == LINK_IDLE ? FLAG_HOST_LEFT : 0) |
           (test_mode != TEST_END ? FLAG_TESTING : 0);
}

static void nak(uint8_t seq, uint8_t reason, uint8_t detail)
{
    uint8_t p[4] = {reason, detail, PROTOCOL_MAJOR, PROTOCOL_MINOR};
    naks_sent++;
    frame_send(MSG_NAK, seq, p, sizeof p);
}

/* led_crc u16, flags, n, the n-byte state: the reply to PEG and UNDO, the tail of a BUTTON event */
static uint8_t put_state(uint8_t *out)
{
    put16(out, led_crc);
    out[2] = flags();
    out[3] = has_state ? STATE_LEN : 0;
    memcpy(out + 4, state, out[3]);
    return (uint8_t)(4 + out[3]);
}

static void pulse(uint8_t type, uint8_t seq)
{
    uint8_t p[9];
    put32(p, millis());
    put16(p + 4, led_crc);
    p[6] = flags();
    put16(p + 7, events);
    frame_send(type, seq, p, sizeof p);
}

static void end_test(void)
{
    /* the state shows again: a test pattern never outlives its host */
    if (test_mode != TEST_END) {
        test_mode = TEST_END;
        render();
    }
}

static void set_link_status(uint8_t status)
{
    if (link_status != status) {
        link_status = status;
        render();
    }
}

static void save(void)
{
    uint8_t undo[UNDO_SNAPSHOT_LEN];
    board_undo_snapshot(undo);
    store_begin(state, undo);
    dirty = 0;
}

static void save_now_and_wait(void)
{
    /* nothing more will change soon: keep it now (a record is at most 24 bytes x 3.4 ms) */
    while (store_busy())
        store_poll();
    if (dirty) {
        save();
        while (store_busy())
            store_poll();
    }
}

static void hello(uint8_t seq)
{
    static const char name[] PROGMEM = GEOMETRY_NAME;
    uint8_t n = (uint8_t)strlen_P(name);
    out[0] = PROTOCOL_MAJOR;
    out[1] = PROTOCOL_MINOR;
    out[2] = FIRMWARE_MAJOR;
    out[3] = FIRMWARE_MINOR;
    out[4] = FIRMWARE_PATCH;
    out[5] = TRACKS;
    put16(out + 6, LED_COUNT);
    put16(out + 8, GEOMETRY_ID);
    memcpy_P(out + 10, name, n + 1); /* 1.1: the name ends with its 0x00, then the features */
    out[11 + n] = FEATURE_EEPROM | FEATURE_BUTTONS | FEATURE_GAMES | FEATURE_TEST;
    hello_seen = 1;
    out[12 + n] = flags(); /* a host learns "restored" without another request */
    put16(out + 13 + n, CURRENT_LIMIT_MA); /* FEATURE_TEST: the supply's budget and the limiter's */
    put32(out + 15 + n, LIGHT_BUDGET);
    frame_send(MSG_HELLO | MSG_REPLY, seq, out, (uint8_t)(19 + n));
    set_link_status(LINK_CONNECTED);
}

static void status(uint8_t seq)
{
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
    memcpy(out + 21, state, out[20]);
    uint8_t *tail = out + 21 + out[20]; /* 1.1 */
    put32(tail, store_records);
    put16(tail + 4, store_saves);
    put16(tail + 6, anim_frame);
    put16(tail + 8, events);
    frame_send(MSG_STATUS | MSG_REPLY, seq, out, (uint8_t)(tail + 10 - out));
}

static void handle(uint8_t type, uint8_t seq, const uint8_t *p, uint8_t len)
{
    static const uint8_t MIN_LEN[] = {0, 2, 1, 3, 0, 0, 0, 2, 1, 1}; /* by type 0x00..0x09 */
    uint8_t reason;
    last_valid_ms = millis();
    if (type >= sizeof MIN_LEN || type == 0)
        return nak(seq, NAK_UNKNOWN_TYPE, type);
    if (len < MIN_LEN[type])
        return nak(seq, NAK_LENGTH, type);
    if (type == MSG_HELLO)
        return p[0] == PROTOCOL_MAJOR ? hello(seq) : nak(seq, NAK_VERSION, p[0]);
    if (!hello_seen)
        return nak(seq, NAK_NO_HELLO, type);
    set_link_status(LINK_CONNECTED);
    switch (type) {
    case MSG_SET_STATE: {
        uint8_t different;
        end_test();
        if ((reason = board_set(p, len, &different)) != 0)
            return nak(seq, reason, type);
        if (different || restored)
            changed(); /* the same state again: nothing redrawn, nothing saved (but confirmed) */
        put16(out, crc16(0xFFFF, p, len)); /* of the payload as received, trailing bytes too */
        put16(out + 2, led_crc);
        out[4] = flags();
        return frame_send(MSG_SET_STATE | MSG_REPLY, seq, out, 5);
    }
    case MSG_READBACK: {
        uint16_t offset = p[0] | (uint16_t)p[1] << 8;
        uint8_t count = p[2];
        if (count > READBACK_MAX || offset > LED_BYTES || count > LED_BYTES - offset)
            return nak(seq, NAK_VALUE, type);
        put16(out, offset);
        memcpy(out + 2, leds + offset, count);
        return frame_send(MSG_READBACK | MSG_REPLY, seq, out, (uint8_t)(count + 2));
    }
    case MSG_STATUS:
        return status(seq);
    case MSG_PING:
        return pulse(MSG_PING | MSG_REPLY, seq);
    case MSG_BYE:
        end_test();
        hello_seen = 0;
        save_now_and_wait();      /* before the reply: the host may close the port, and reset us, at once */
        set_link_status(LINK_IDLE);
        out[0] = flags();
        return frame_send(MSG_BYE | MSG_REPLY, seq, out, 1);
    case MSG_PEG:
    case MSG_UNDO:
        end_test();
        reason = type == MSG_PEG ? board_peg(p[0], p[1]) : board_undo(p[0]);
        if (reason)
            return nak(seq, reason, type);
        changed();
        return frame_send(type | MSG_REPLY, seq, out, put_state(out));
    case MSG_TEST:
        if ((reason = board_test(p, len)) != 0)
            return nak(seq, reason, type);
        render();
        put16(out, led_crc);
        out[2] = flags();
        return frame_send(MSG_TEST | MSG_REPLY, seq, out, 3);
    default:
        return nak(seq, NAK_UNKNOWN_TYPE, type);
    }
}

static void button(uint8_t index)
{
    static const uint8_t ACTION[] = {BUTTON_PLUS1, BUTTON_PLUS2, BUTTON_UNDO};
    uint8_t track = index / 3, action = ACTION[index % 3];
    /* during a self-test a press is only reported: the game on the board stays as it was */
    uint8_t reason = test_mode != TEST_END ? BUTTON_TESTING
                     : action == BUTTON_UNDO ? board_undo(track) : board_peg(track, action);
    events++;
    if (!reason)
        changed();
    if (!hello_seen)
        return; /* no host to tell; a host learns the state from STATUS or the next event */
    put16(out, events);
    out[2] = track;
    out[3] = action;
    out[4] = reason;
    frame_send(MSG_BUTTON, (uint8_t)events, out, (uint8_t)(5 + put_state(out + 5)));
}

static void periodic(void)
{
    uint32_t now = millis();
    if (hello_seen && link_status == LINK_CONNECTED && now - last_valid_ms > HOST_TIMEOUT_MS) {
        test_mode = TEST_END;       /* set_link_status redraws the state */
        set_link_status(LINK_LOST); /* the pegs stay as they were */
    }
    if (hello_seen && now - last_heartbeat_ms >= HEARTBEAT_MS) {
        last_heartbeat_ms = now;
        pulse(MSG_HEARTBEAT, heartbeat_seq++);
    }
    if (anim_restarted) {
        anim_restarted = 0;
        last_anim_ms = now;
    }
    if (test_mode == TEST_END && has_state && state[ST_ANIM] != ANIM_NONE && now - last_anim_ms >= WIN_FRAME_MS) {
        last_anim_ms = now;
        board_animate();
        render();
    }
    if (now != last_tick_ms) {
        last_tick_ms = now;
        uint8_t pressed = buttons_poll();
        if (pressed)
            button((uint8_t)(pressed - 1));
    }
    if (dirty && !store_busy() && now - changed_ms >= SAVE_AFTER_MS)
        save();
    store_poll();
}

int main(void)
{
    wdt_enable(WDTO_2S);
    uart_init();
    ws2812_init();
    buttons_init();
    clock_init();
    set_sleep_mode(SLEEP_MODE_IDLE);
    {
        uint8_t kept[STATE_LEN], undo[UNDO_SNAPSHOT_LEN];
        restored = store_load(kept, undo) && board_restore(kept);
        if (restored)
            board_undo_restore(undo);
    }
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
