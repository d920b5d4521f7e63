/* Runs the crib board firmware in simavr: UART0 <-> a pseudo-terminal, WS2812 pin -> LED frames.
 *
 *   board_sim FIRMWARE.elf [--link PATH] [--fast]
 *
 * --fast lets simulated time run ahead of the wall clock while received bytes wait (for soak
 * tests); by default the UART runs at its real baud rate in wall-clock time.
 * Prints "PTY <device>" once the UART is bridged (and points the symlink PATH at it, so parallel
 * simulators each get their own name), then one line per latched LED frame:
 *   FRAME <n> <sim_us> <leds> <timing_violations> <longest_low_cycles> <hex GRB bytes | "=" when unchanged>
 * A bit is decoded from its high time: 4..8 cycles is a 0, 11..15 a 1 (WS2812B: 0.25-0.55 us and
 * 0.65-0.95 us at 16 MHz); anything else, or a low phase between 6 us and the 50 us reset inside
 * a frame, counts as a timing violation. The line low for 50 us latches the frame. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <time.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "avr_ioport.h"
#include "avr_uart.h"
#include "sim_avr.h"
#include "sim_elf.h"

#define F_CPU 16000000UL
#define DATA_PORT 'D'
#define DATA_PIN 6
#define RESET_CYCLES 800 /* 50 us */
#define MAX_LOW_IN_FRAME 96 /* 6 us: a wide margin under the 50 us reset of the datasheet */
#define MAX_LEDS 1024

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


/* --- UART0 <-> pty --- */
static int pty_master = -1, pty_slave = -1;
static avr_irq_t *uart_input;
static int uart_xon = 1;
static uint8_t pending[4096];
static size_t pending_len, pending_pos;

static void on_uart_output(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    uint8_t byte = (uint8_t)value;
    if (write(pty_master, &byte, 1) < 0 && errno != EAGAIN) {
        /* nobody has the port open: bytes sent before the host opens it are lost, as on a board */
    }
}

static void on_uart_xon(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)value;
    (void)param;
    uart_xon = 1;
}

static void on_uart_xoff(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)value;
    (void)param;
    uart_xon = 0;
}

static int open_pty(char *name, size_t size)
{
    pty_master = posix_openpt(O_RDWR | O_NOCTTY);
    if (pty_master < 0 || grantpt(pty_master) || unlockpt(pty_master) || ptsname_r(pty_master, name, size))
        return -1;
    /* keep our own slave descriptor open so the master never sees a hang-up between hosts */
    pty_slave = open(name, O_RDWR | O_NOCTTY);
    if (pty_slave < 0)
        return -1;
    struct termios tio;
    tcgetattr(pty_slave, &tio);
    cfmakeraw(&tio);
    tcsetattr(pty_slave, TCSANOW, &tio);
    fcntl(pty_master, F_SETFL, fcntl(pty_master, F_GETFL) | O_NONBLOCK);
    return 0;
}

static void pump_uart(void)
{
    if (pending_pos == pending_len) {
        ssize_t n = read(pty_master, pending, sizeof pending);
        pending_pos = 0;
        pending_len = n > 0 ? (size_t)n : 0;
    }
    while (uart_xon && pending_pos < pending_len)
        avr_raise_irq(uart_input, pending[pending_pos++]);
}

/* simavr's own sleep callback usleeps through the AVR's idle time; this one waits on the pty
 * instead, so a byte from the host wakes the simulation at once (the AVR's clock then runs at
 * most one idle stretch, <= 1 ms here, ahead of the wall clock). While received bytes wait it
 * sleeps normally, so the UART keeps its real baud rate, unless --fast lets it run ahead. */
static int fast;

static void sleep_until_input(avr_t *core, avr_cycle_count_t how_long)
{
    uint32_t usec = avr_pending_sleep_usec(core, how_long);
    if (!usec)
        return;
    if (pending_pos < pending_len) {
        if (!fast)
            usleep(usec);
        return;
    }
    struct pollfd fd = {.fd = pty_master, .events = POLLIN};
    struct timespec wait = {.tv_sec = usec / 1000000, .tv_nsec = (long)(usec % 1000000) * 1000};
    ppoll(&fd, 1, &wait, NULL);
}

/* The link names our pty. A link whose pty is alive belongs to another simulator: refused, never
 * taken over; a dangling one (a killed simulator's) is replaced. */
static int make_link(const char *pty_name)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        if (symlink(pty_name, link_path) == 0)
            return 0;
        if (errno != EEXIST)
            break;
        char target[256];
        ssize_t n = readlink(link_path, target, sizeof target - 1);
        if (n < 0) {
            fprintf(stderr, "board_sim: %s exists and is not a simulator's link\n", link_path);
            return -1;
        }
        target[n] = 0;
        if (access(target, F_OK) == 0) {
            fprintf(stderr, "board_sim: %s is in use by another simulated board (%s)\n", link_path, target);
            return -1;
        }
        unlink(link_path);
    }
    fprintf(stderr, "board_sim: cannot create the link %s: %s\n", link_path, strerror(errno));
    return -1;
}

static void remove_link(const char *pty_name)
{
    char target[256];
    ssize_t n = link_path ? readlink(link_path, target, sizeof target - 1) : -1;
    if (n < 0)
        return;
    target[n] = 0;
    if (strcmp(target, pty_name) == 0) /* only our own */
        unlink(link_path);
}

static void on_signal(int sig)
{
    (void)sig;
    stop = 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FIRMWARE.elf [--link PATH] [--fast]\n", argv[0]);
        return 2;
    }
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--link") == 0 && i + 1 < argc)
            link_path = argv[++i];
        else if (strcmp(argv[i], "--fast") == 0)
            fast = 1;
        else {
            fprintf(stderr, "board_sim: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    prctl(PR_SET_PDEATHSIG, SIGTERM); /* the host process died, even by SIGKILL: stop too */
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
    avr->sleep = sleep_until_input;

    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(DATA_PORT), DATA_PIN), on_data_pin, NULL);

    char pty_name[64];
    if (open_pty(pty_name, sizeof pty_name) != 0) {
        perror("board_sim: pty");
        return 1;
    }
    uint32_t uart_flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &uart_flags);
    uart_flags &= ~(uint32_t)AVR_UART_FLAG_STDIO;
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &uart_flags);
    uart_input = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), on_uart_output, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), on_uart_xon, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), on_uart_xoff, NULL);
    if (link_path && make_link(pty_name) != 0)
        return 1;
    printf("PTY %s\n", pty_name);
    fflush(stdout);

    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGPIPE, SIG_IGN);
    int status = cpu_Running;
    uint32_t steps = 0;
    while (!stop && status != cpu_Done && status != cpu_Crashed) {
        status = avr_run(avr);
        if ((++steps & 255) == 0 || status == cpu_Sleeping)
            pump_uart();
        if (strip.bits && !strip.level && avr->cycle - strip.fall >= RESET_CYCLES)
            emit_frame();
    }
    remove_link(pty_name);
    if (status == cpu_Crashed) {
        fprintf(stderr, "board_sim: the firmware crashed at pc 0x%04x\n", avr->pc);
        return 3;
    }
    return 0;
}
