/* Runs the crib board firmware in simavr: UART0 <-> a pseudo-terminal, WS2812 pin -> LED frames.
 *
 *   board_sim FIRMWARE.elf [--link PATH]
 *
 * Prints "PTY <device>" once the UART is bridged (and points the symlink PATH at it, so parallel
 * simulators each get their own name), then one line per latched LED frame:
 *   FRAME <n> <sim_us> <leds> <timing_violations> <longest_low_cycles> <hex GRB bytes | "=" when unchanged>
 * A bit is decoded from its high time: 4..8 cycles is a 0, 11..15 a 1 (WS2812B: 0.25-0.55 us and
 * 0.65-0.95 us at 16 MHz); anything else, or a low phase between 6 us and the 50 us reset inside
 * a frame, counts as a timing violation. The line low for 50 us latches the frame. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "avr_ioport.h"
#include "sim_avr.h"
#include "sim_elf.h"
#include "uart_pty.h"

#define F_CPU 16000000UL
#define DATA_PORT 'D'
#define DATA_PIN 6
#define RESET_CYCLES 800 /* 50 us */
#define MAX_LOW_IN_FRAME 96 /* 6 us: a wide margin under the 50 us reset of the datasheet */
#define MAX_LEDS 1024

static uart_pty_t uart_pty;
static volatile sig_atomic_t stop;
static const char *link_path;

static struct {
    avr_cycle_count_t rise, fall;
    int level;
    uint32_t bits;
    uint8_t bytes[MAX_LEDS * 3];
    uint8_t previous[MAX_LEDS * 3];
    uint32_t previous_bits;
    uint32_t violations;
    avr_cycle_count_t max_low; /* longest low phase inside the frame, in cycles */
    uint32_t frames;
} strip;

static avr_t *avr;

static void on_data_pin(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    avr_cycle_count_t now = avr->cycle;
    int level = value ? 1 : 0;
    if (level == strip.level)
        return;
    strip.level = level;
    if (level) {
        avr_cycle_count_t low = now - strip.fall;
        if (strip.bits && low > MAX_LOW_IN_FRAME)
            strip.violations++;
        if (strip.bits && low > strip.max_low)
            strip.max_low = low;
        strip.rise = now;
        return;
    }
    strip.fall = now;
    avr_cycle_count_t high = now - strip.rise;
    int bit;
    if (high >= 4 && high <= 8)
        bit = 0;
    else if (high >= 11 && high <= 15)
        bit = 1;
    else {
        strip.violations++;
        bit = high > 9;
    }
    if (strip.bits < MAX_LEDS * 24) {
        uint8_t *byte = &strip.bytes[strip.bits / 8];
        if (strip.bits % 8 == 0)
            *byte = 0;
        *byte |= (uint8_t)(bit << (7 - strip.bits % 8));
    }
    strip.bits++;
}

static void emit_frame(void)
{
    uint32_t leds = strip.bits / 24;
    if (strip.bits % 24)
        strip.violations++;
    if (leds > MAX_LEDS)
        leds = MAX_LEDS;
    unsigned long long us = avr->cycle / (F_CPU / 1000000UL);
    printf("FRAME %u %llu %u %u %u ", strip.frames++, us, leds, strip.violations, (unsigned)strip.max_low);
    if (strip.bits == strip.previous_bits && memcmp(strip.bytes, strip.previous, leds * 3) == 0) {
        fputs("=\n", stdout);
    } else {
        for (uint32_t i = 0; i < leds * 3; i++)
            printf("%02x", strip.bytes[i]);
        fputc('\n', stdout);
        memcpy(strip.previous, strip.bytes, leds * 3);
        strip.previous_bits = strip.bits;
    }
    fflush(stdout);
    strip.bits = 0;
    strip.violations = 0;
    strip.max_low = 0;
}

static void on_signal(int sig)
{
    (void)sig;
    stop = 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FIRMWARE.elf [--link PATH]\n", argv[0]);
        return 2;
    }
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--link") == 0 && i + 1 < argc)
            link_path = argv[++i];
        else {
            fprintf(stderr, "board_sim: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    elf_firmware_t firmware;
    memset(&firmware, 0, sizeof firmware);
    if (elf_read_firmware(argv[1], &firmware) != 0) {
        fprintf(stderr, "board_sim: cannot read %s\n", argv[1]);
        return 1;
    }
    strcpy(firmware.mmcu, "atmega328p");
    firmware.frequency = F_CPU;
    avr = avr_make_mcu_by_name(firmware.mmcu);
    if (!avr) {
        fprintf(stderr, "board_sim: simavr has no atmega328p\n");
        return 1;
    }
    avr_init(avr);
    avr_load_firmware(avr, &firmware);
    avr->log = LOG_ERROR;

    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(DATA_PORT), DATA_PIN), on_data_pin, NULL);

    uart_pty_init(avr, &uart_pty);
    uart_pty_connect(&uart_pty, '0');
    if (link_path) {
        unlink(link_path);
        if (symlink(uart_pty.port[0].slavename, link_path) != 0) {
            perror("board_sim: symlink");
            return 1;
        }
    }
    printf("PTY %s\n", uart_pty.port[0].slavename);
    fflush(stdout);

    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGPIPE, SIG_IGN);
    int status = cpu_Running;
    while (!stop && status != cpu_Done && status != cpu_Crashed) {
        status = avr_run(avr);
        if (strip.bits && !strip.level && avr->cycle - strip.fall >= RESET_CYCLES)
            emit_frame();
    }
    /* no uart_pty_stop(): its thread ignores the SIGINT it is stopped with once we handle SIGINT */
    if (link_path)
        unlink(link_path);
    if (status == cpu_Crashed) {
        fprintf(stderr, "board_sim: the firmware crashed at pc 0x%04x\n", avr->pc);
        return 3;
    }
    return 0;
}
