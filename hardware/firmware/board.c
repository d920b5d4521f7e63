/* The board's state, pegging and undo, and its picture (hardware/leds.py is the host's copy). */
#include <avr/pgmspace.h>
#include <string.h>
#include "board.h"
#include "frame.h"
#include "power.h"
#include "protocol.h"

/* 121 x 61: a multiple of both comet cycles, so the 16-bit frame counter wraps without a jump */
#define ANIM_WRAP ((uint16_t)GAME_HOLE * SHORT_GAME)
#define DEFAULT_SKUNK_LINE 90 /* RULES.md: every preset skunks at 90 */

uint8_t leds[LED_BYTES];
uint8_t state[STATE_LEN];
uint8_t has_state;
uint16_t led_crc;
uint16_t anim_frame;
uint8_t anim_restarted;
uint8_t show_pending;
static uint8_t history[TRACKS][UNDO_DEPTH]; /* earlier back pegs, for undo */
static uint8_t history_len[TRACKS];
static uint8_t last_pegged = UNDO_LAST_PEGGED;
static uint8_t level_scale;
uint8_t test_mode;
static uint8_t test_rgb[3];
static uint16_t test_arg; /* TEST_LED: the LED; TEST_TRACK: the track */

static uint8_t target(const uint8_t *s) { return s[ST_TARGET] ? s[ST_TARGET] : GAME_HOLE; }

static uint8_t valid(const uint8_t *s)
{
    uint8_t goal = target(s);
    if (goal != GAME_HOLE && goal != SHORT_GAME)
        return 0;
    for (uint8_t t = 0; t < TRACKS; t++) {
        uint8_t front = s[ST_PEGS + 2 * t], back = s[ST_PEGS + 2 * t + 1];
        if (front > goal || back > front || (back == front && front != 0))
            return 0;
    }
    if (s[ST_DEALER] != NO_DEALER && s[ST_DEALER] >= TRACKS)
        return 0;
    if (s[ST_BRIGHTNESS] < 1 || s[ST_BRIGHTNESS] > BRIGHTNESS_LEVELS)
        return 0;
    if (s[ST_ANIM] == ANIM_NONE ? s[ST_ANIM_TRACK] != 0 : (s[ST_ANIM] > ANIM_DOUBLE_SKUNK || s[ST_ANIM_TRACK] >= TRACKS))
        return 0;
    if (s[ST_SKUNK] >= goal - 1 || s[ST_DOUBLE_SKUNK] >= goal - 1)
        return 0;
    return 1;
}

static void apply(const uint8_t *s)
{
    if (!has_state || state[ST_ANIM] != s[ST_ANIM] || state[ST_ANIM_TRACK] != s[ST_ANIM_TRACK])
    {
        anim_frame = 0; /* a new animation starts at its predictable first frame */
        anim_restarted = 1;
    }
    for (uint8_t t = 0; t < TRACKS; t++)
        if (!has_state || memcmp(state + ST_PEGS + 2 * t, s + ST_PEGS + 2 * t, 2) != 0) {
            history_len[t] = 0; /* pegs set from outside: nothing of theirs to undo */
            if (last_pegged == t)
                last_pegged = UNDO_LAST_PEGGED;
        }
    memcpy(state, s, STATE_LEN);
    has_state = 1;
}

uint8_t board_set(const uint8_t *p, uint8_t len, uint8_t *changed)
{
    uint8_t s[STATE_LEN];
    if (len < 1)
        return NAK_LENGTH;
    if (p[ST_TRACKS] != TRACKS)
        return NAK_VALUE; /* a state for another board: the length follows from the track count */
    if (len < STATE_LEN_1_0)
        return NAK_LENGTH;
    memset(s, 0, sizeof s); /* 1.1 fields a 1.0 host leaves out: full game, no games won */
    memcpy(s, p, len < STATE_LEN ? len : STATE_LEN);
    if (!valid(s))
        return NAK_VALUE;
    *changed = !has_state || memcmp(state, s, STATE_LEN) != 0;
    if (*changed)
        apply(s); /* the same state again changes nothing: an animation keeps its phase */
    return 0;
}

uint8_t board_restore(const uint8_t *s)
{
    if (s[ST_TRACKS] != TRACKS || !valid(s))
        return 0;
    apply(s);
    return 1;
}

static void start_state(void)
{
    /* the empty board a button press starts from when no host has set a state */
    uint8_t s[STATE_LEN];
    memset(s, 0, sizeof s);
    s[ST_TRACKS] = TRACKS;
    s[ST_DEALER] = NO_DEALER;
    s[ST_BRIGHTNESS] = DEFAULT_BRIGHTNESS;
    s[ST_SKUNK] = DEFAULT_SKUNK_LINE;
    apply(s);
}

static uint8_t win_kind(uint8_t winner)
{
    /* the deepest loser decides how the win is shown */
    uint8_t lowest = 0xFF;
    for (uint8_t t = 0; t < TRACKS; t++)
        if (t != winner && state[ST_PEGS + 2 * t] < lowest)
            lowest = state[ST_PEGS + 2 * t];
    if (state[ST_DOUBLE_SKUNK] && lowest <= state[ST_DOUBLE_SKUNK])
        return ANIM_DOUBLE_SKUNK;
    if (state[ST_SKUNK] && lowest <= state[ST_SKUNK])
        return ANIM_SKUNK;
    return ANIM_WIN;
}

uint8_t board_peg(uint8_t track, uint8_t points)
{
    if (track >= TRACKS || points == 0)
        return NAK_VALUE;
    if (!has_state)
        start_state();
    uint8_t *peg = state + ST_PEGS + 2 * track, goal = target(state);
    if (peg[0] >= goal)
        return NAK_VALUE; /* pegged out: undo, or a new state */
    uint8_t *h = history[track];
    if (history_len[track] == UNDO_DEPTH)
        memmove(h, h + 1, UNDO_DEPTH - 1);
    else
        history_len[track]++;
    h[history_len[track] - 1] = peg[1];
    peg[1] = peg[0]; /* the back peg leapfrogs the front one */
    peg[0] = points >= goal - peg[0] ? goal : (uint8_t)(peg[0] + points);
    last_pegged = track;
    if (peg[0] == goal && state[ST_ANIM] == ANIM_NONE) {
        state[ST_ANIM] = win_kind(track);
        state[ST_ANIM_TRACK] = track;
        anim_frame = 0;
        anim_restarted = 1;
    }
    return 0;
}

void board_undo_snapshot(uint8_t *out)
{
    for (uint8_t t = 0; t < TRACKS; t++)
        out[t] = history_len[t] ? history[t][history_len[t] - 1] : 0xFF;
    out[TRACKS] = last_pegged;
}

void board_undo_restore(const uint8_t *in)
{
    for (uint8_t t = 0; t < TRACKS; t++) {
        uint8_t back = state[ST_PEGS + 2 * t + 1];
        /* one level survives a reset; it must still lie behind the back peg */
        history_len[t] = in[t] != 0xFF && (in[t] < back || in[t] == 0);
        history[t][0] = in[t];
    }
    last_pegged = in[TRACKS] < TRACKS ? in[TRACKS] : UNDO_LAST_PEGGED;
}

uint8_t board_undo(uint8_t track)
{
    if (track == UNDO_LAST_PEGGED)
        track = last_pegged;
    if (track >= TRACKS || !has_state || history_len[track] == 0)
        return NAK_VALUE; /* nothing of this track's to take back */
    uint8_t *peg = state + ST_PEGS + 2 * track;
    peg[0] = peg[1];
    peg[1] = history[track][--history_len[track]];
    if (state[ST_ANIM] != ANIM_NONE && state[ST_ANIM_TRACK] == track) {
        state[ST_ANIM] = ANIM_NONE; /* the win is taken back with its peg */
        state[ST_ANIM_TRACK] = 0;
    }
    return 0;
}

void board_animate(void)
{
    anim_frame = anim_frame + 1 == ANIM_WRAP ? 0 : anim_frame + 1;
}

/* --- the picture --- */
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

/* In the short game the positions run 0..61 and 61 is the game hole. */
static uint16_t hole_led(uint8_t track, uint8_t position)
{
    if (position == target(state))
        position = GAME_HOLE;
    return pgm_read_word(&HOLE_LED[track][position]);
}

static void render_state(void)
{
    for (uint8_t t = 0; t < TRACKS; t++) {
        if (state[ST_SKUNK])
            set_scaled(hole_led(t, state[ST_SKUNK] + 1), SKUNK_MARKER_RGB, 0);
        if (state[ST_DOUBLE_SKUNK])
            set_scaled(hole_led(t, state[ST_DOUBLE_SKUNK] + 1), DOUBLE_SKUNK_MARKER_RGB, 0);
    }
    if (state[ST_DEALER] != NO_DEALER)
        set_scaled(pgm_read_word(&DEALER_LED[state[ST_DEALER]]), TRACK_RGB[state[ST_DEALER]], 0);
    for (uint8_t t = 0; t < TRACKS; t++) {
        for (uint8_t k = 0; k < state[ST_GAMES + t] && k < GAME_LEDS; k++)
            set_scaled(pgm_read_word(&GAMES_LED[t][k]), TRACK_RGB[t], 0);
        uint8_t r = scale(pgm_read_byte(&TRACK_RGB[t][0]));
        uint8_t g = scale(pgm_read_byte(&TRACK_RGB[t][1]));
        uint8_t b = scale(pgm_read_byte(&TRACK_RGB[t][2]));
        set_led(hole_led(t, state[ST_PEGS + 2 * t + 1]), dim(r), dim(g), dim(b));
        set_led(hole_led(t, state[ST_PEGS + 2 * t]), r, g, b);
    }
    if (state[ST_ANIM] != ANIM_NONE) {
        /* a comet running along the winner's holes 1..target, head first, tail halving */
        const uint8_t *rgb = state[ST_ANIM] == ANIM_SKUNK ? SKUNK_HEAD_RGB
                             : state[ST_ANIM] == ANIM_DOUBLE_SKUNK ? DOUBLE_SKUNK_HEAD_RGB : WIN_HEAD_RGB;
        uint8_t head = (uint8_t)(anim_frame % target(state) + 1);
        for (uint8_t k = 0; k < WIN_TAIL && k < head; k++)
            set_scaled(hole_led(state[ST_ANIM_TRACK], head - k), rgb, k);
    }
}

uint8_t board_test(const uint8_t *p, uint8_t len)
{
    static const uint8_t MIN_LEN[] = {1, 6, 5, 4}; /* by mode */
    if (p[0] > TEST_ALL)
        return NAK_VALUE;
    if (len < MIN_LEN[p[0]])
        return NAK_LENGTH;
    uint16_t arg = p[0] == TEST_LED ? (uint16_t)(p[4] | (uint16_t)p[5] << 8) : p[0] == TEST_TRACK ? p[4] : 0;
    if ((p[0] == TEST_LED && arg >= LED_COUNT) || (p[0] == TEST_TRACK && arg >= TRACKS))
        return NAK_VALUE;
    test_mode = p[0];
    if (test_mode != TEST_END)
        memcpy(test_rgb, p + 1, 3);
    test_arg = arg;
    return 0;
}

static void test_led(uint16_t led) { set_led(led, test_rgb[0], test_rgb[1], test_rgb[2]); }

static void render_test(void)
{
    if (test_mode == TEST_LED) {
        test_led(test_arg);
    } else if (test_mode == TEST_TRACK) {
        uint8_t t = (uint8_t)test_arg;
        for (uint8_t position = 0; position < POSITIONS; position++)
            test_led(pgm_read_word(&HOLE_LED[t][position]));
        test_led(pgm_read_word(&DEALER_LED[t]));
        for (uint8_t k = 0; k < GAME_LEDS; k++)
            test_led(pgm_read_word(&GAMES_LED[t][k]));
    } else {
        for (uint16_t led = 0; led < LED_COUNT; led++)
            test_led(led);
    }
}

void board_render(uint8_t look)
{
    static const uint8_t *const LOOK_RGB[] = {STATUS_WAITING_RGB, STATUS_CONNECTED_RGB, STATUS_LOST_RGB,
                                              STATUS_IDLE_RGB, STATUS_RESTORED_RGB};
    memset(leds, 0, sizeof leds);
    if (test_mode != TEST_END) {
        render_test();
    } else {
        level_scale = pgm_read_byte(&BRIGHTNESS_SCALE[(has_state ? state[ST_BRIGHTNESS] : DEFAULT_BRIGHTNESS) - 1]);
        if (has_state)
            render_state();
        set_scaled(STATUS_LED, LOOK_RGB[look], 0);
    }
    power_limit(leds, LED_BYTES); /* within the supply's budget, whatever was drawn */
    led_crc = crc16(0xFFFF, leds, LED_BYTES);
    show_pending = 1;
}
