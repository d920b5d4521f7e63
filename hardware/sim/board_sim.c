/* Runs the crib board firmware in simavr: UART0 <-> a pseudo-terminal, WS2812 pin -> LED frames.
 *
 *   board_sim FIRMWARE.elf [--link PATH] [--fast] [--reset-on-open MS] [--eeprom FILE]
 *
 * --reset-on-open MS: each time a host opens the port the board resets, as an Uno/Nano does when
 * DTR rises, and the bootloader holds it MS milliseconds (input meanwhile is lost) before the
 * firmware starts again. --eeprom FILE: the EEPROM is loaded from FILE and written back to it
 * (within 0.1 s of a change, and at exit), so it survives simulator restarts like a power cut.
 * Standard input takes commands: "press I MS" holds button I (0..8: PB0..PB4, PC0..PC3) low for
 * MS milliseconds of simulated time.
 * --fast lets simulated time run ahead of the wall clock while received bytes wait (for soak
 * tests); by default the UART runs at its real baud rate in wall-clock time.
 * Prints "PTY <device>" once the UART is bridged (and points the symlink PATH at it, so parallel
 * simulators each get their own name), then one line per latched LED frame:
 *   FRAME <n> <sim_us> <leds> <timing_violations> <longest_low_cycles> <hex GRB bytes | "=" when unchanged>
 * A bit is decoded from its high time: 4..8 cycles is a 0, 11..15 a 1 (WS2812B: 0.25-0.55 us and
 * 0.65-0.95 us at 16 MHz); anything else, or a low phase between 6 us and the 50 us reset inside
 * a frame, counts as a timing violation. The line low for 50 us latches the frame.
 *
 * One file of about 500 lines, on purpose: every part (strip decoder, pty bridge, reset on open,
 * EEPROM file, buttons) is a simavr callback on the same core and pty; split, they would share
 * a dozen globals through a header for no gain in clarity. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
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

#include "avr_eeprom.h"
#include "avr_ioport.h"
#include "avr_uart.h"
#include "sim_cycle_timers.h"
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

/* --- reset on open: the host's open shows as the master's hang-up ending --- */
static long reset_on_open_ms = -1;
static int port_open;
static struct timespec boot_until;
static int booting;

static void release_buttons(void);

static double seconds_until(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(t->tv_sec - now.tv_sec) + (double)(t->tv_nsec - now.tv_nsec) / 1e9;
}

static void check_port(void)
{
    struct pollfd fd = {.fd = pty_master, .events = POLLIN};
    poll(&fd, 1, 0);
    int open_now = !(fd.revents & POLLHUP);
    if (open_now && !port_open) {
        /* DTR rose: reset, then the bootloader keeps the chip (and eats its input) a while */
        clock_gettime(CLOCK_MONOTONIC, &boot_until);
        boot_until.tv_sec += reset_on_open_ms / 1000;
        boot_until.tv_nsec += (reset_on_open_ms % 1000) * 1000000L;
        if (boot_until.tv_nsec >= 1000000000L) {
            boot_until.tv_sec++;
            boot_until.tv_nsec -= 1000000000L;
        }
        booting = 1;
        pending_len = pending_pos = 0;
    }
    port_open = open_now;
}

static void finish_boot(void)
{
    uint8_t junk[256];
    while (read(pty_master, junk, sizeof junk) > 0)
        ;
    avr_reset(avr);
    release_buttons();
    uart_xon = 1;
    booting = 0;
}

/* --- EEPROM kept in a file --- */
static const char *eeprom_path;
static uint8_t eeprom_saved[4096];
static uint32_t eeprom_size;

static uint8_t *eeprom_bytes(void)
{
    avr_eeprom_desc_t desc = {.ee = NULL, .offset = 0, .size = eeprom_size};
    avr_ioctl(avr, AVR_IOCTL_EEPROM_GET, &desc);
    return desc.ee;
}

static void eeprom_load(void)
{
    eeprom_size = avr->e2end + 1;
    uint8_t buf[4096];
    memset(buf, 0xFF, eeprom_size); /* an erased EEPROM */
    FILE *f = fopen(eeprom_path, "rb");
    if (f) {
        size_t n = fread(buf, 1, eeprom_size, f);
        (void)n;
        fclose(f);
    }
    avr_eeprom_desc_t desc = {.ee = buf, .offset = 0, .size = eeprom_size};
    avr_ioctl(avr, AVR_IOCTL_EEPROM_SET, &desc);
    memcpy(eeprom_saved, buf, eeprom_size);
}

static void eeprom_save(void)
{
    uint8_t *now = eeprom_bytes();
    if (!now || memcmp(now, eeprom_saved, eeprom_size) == 0)
        return;
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", eeprom_path);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return;
    int ok = fwrite(now, 1, eeprom_size, f) == eeprom_size;
    ok = fclose(f) == 0 && ok;
    if (ok && rename(tmp, eeprom_path) == 0) /* a whole image or the previous one, never half */
        memcpy(eeprom_saved, now, eeprom_size);
}

/* --- buttons, pressed from standard input --- */
#define BUTTON_PINS 9
static avr_irq_t *button_irq[BUTTON_PINS];
static char command[128];
static size_t command_len;

static avr_cycle_count_t release_button(avr_t *core, avr_cycle_count_t when, void *param)
{
    (void)core;
    (void)when;
    avr_raise_irq(button_irq[(intptr_t)param], 1);
    return 0;
}

static void release_buttons(void)
{
    /* simavr has no pull-ups: drive every button pin high (released), low first so it registers */
    for (int i = 0; i < BUTTON_PINS; i++) {
        avr_raise_irq(button_irq[i], 0);
        avr_raise_irq(button_irq[i], 1);
    }
}

static void run_command(const char *line)
{
    int button, ms;
    if (sscanf(line, "press %d %d", &button, &ms) == 2 && button >= 0 && button < BUTTON_PINS && ms > 0) {
        avr_raise_irq(button_irq[button], 0);
        avr_cycle_timer_register_usec(avr, (uint32_t)ms * 1000u, release_button, (void *)(intptr_t)button);
    } else {
        fprintf(stderr, "board_sim: unknown command: %s\n", line);
    }
}

static void read_commands(void)
{
    char buf[128];
    ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
    for (ssize_t i = 0; i < n; i++) {
        if (buf[i] == '\n') {
            command[command_len] = 0;
            run_command(command);
            command_len = 0;
        } else if (command_len < sizeof command - 1) {
            command[command_len++] = buf[i];
        }
    }
}

static void pump_uart(void)
{
    if (reset_on_open_ms >= 0)
        check_port();
    read_commands();
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
    if (pending_pos < pending_len || (reset_on_open_ms >= 0 && !port_open)) {
        if (!fast || (reset_on_open_ms >= 0 && !port_open))
            usleep(usec); /* no host on a resetting port: nothing to wake us but time */
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

static int parse_args(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FIRMWARE.elf [--link PATH] [--fast] [--reset-on-open MS] [--eeprom FILE]\n",
                argv[0]);
        return -1;
    }
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--link") == 0 && i + 1 < argc)
            link_path = argv[++i];
        else if (strcmp(argv[i], "--fast") == 0)
            fast = 1;
        else if (strcmp(argv[i], "--reset-on-open") == 0 && i + 1 < argc)
            reset_on_open_ms = atol(argv[++i]);
        else if (strcmp(argv[i], "--eeprom") == 0 && i + 1 < argc)
            eeprom_path = argv[++i];
        else {
            fprintf(stderr, "board_sim: unknown argument %s\n", argv[i]);
            return -1;
        }
    }
    return 0;
}

static int load_core(const char *elf)
{
    elf_firmware_t firmware;
    memset(&firmware, 0, sizeof firmware);
    if (elf_read_firmware(elf, &firmware) != 0) {
        fprintf(stderr, "board_sim: cannot read %s\n", elf);
        return -1;
    }
    strcpy(firmware.mmcu, "atmega328p");
    firmware.frequency = F_CPU;
    avr = avr_make_mcu_by_name(firmware.mmcu);
    if (!avr) {
        fprintf(stderr, "board_sim: simavr has no atmega328p\n");
        return -1;
    }
    avr_init(avr);
    avr_load_firmware(avr, &firmware);
    avr->log = LOG_ERROR;
    avr->sleep = sleep_until_input;
    if (eeprom_path)
        eeprom_load();
    for (int i = 0; i < BUTTON_PINS; i++)
        button_irq[i] = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(i < 5 ? 'B' : 'C'), i < 5 ? i : i - 5);
    release_buttons();
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(DATA_PORT), DATA_PIN), on_data_pin, NULL);
    return 0;
}

static void bridge_uart(void)
{
    uint32_t uart_flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &uart_flags);
    uart_flags &= ~(uint32_t)AVR_UART_FLAG_STDIO;
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &uart_flags);
    uart_input = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), on_uart_output, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), on_uart_xon, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), on_uart_xoff, NULL);
}

static int run(void)
{
    int status = cpu_Running;
    uint32_t steps = 0;
    struct timespec last_save;
    clock_gettime(CLOCK_MONOTONIC, &last_save);
    while (!stop && status != cpu_Done && status != cpu_Crashed) {
        if (eeprom_path && seconds_until(&last_save) < -0.1) {
            eeprom_save();
            clock_gettime(CLOCK_MONOTONIC, &last_save);
        }
        if (booting) {
            if (seconds_until(&boot_until) > 0) {
                usleep(1000);
                check_port();
                read_commands();
                continue;
            }
            finish_boot();
        }
        status = avr_run(avr);
        if ((++steps & 255) == 0 || status == cpu_Sleeping)
            pump_uart();
        if (strip.bits && !strip.level && avr->cycle - strip.fall >= RESET_CYCLES)
            emit_frame();
    }
    return status;
}

int main(int argc, char **argv)
{
    if (parse_args(argc, argv) != 0)
        return 2;
    prctl(PR_SET_PDEATHSIG, SIGTERM); /* the host process died, even by SIGKILL: stop too */
    if (load_core(argv[1]) != 0)
        return 1;
    fcntl(STDIN_FILENO, F_SETFL, fcntl(STDIN_FILENO, F_GETFL) | O_NONBLOCK);
    char pty_name[64];
    if (open_pty(pty_name, sizeof pty_name) != 0) {
        perror("board_sim: pty");
        return 1;
    }
    bridge_uart();
    if (link_path && make_link(pty_name) != 0)
        return 1;
    printf("PTY %s\n", pty_name);
    fflush(stdout);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGPIPE, SIG_IGN);
    if (reset_on_open_ms >= 0) {
        close(pty_slave); /* the host's opens and closes must show on the master */
        pty_slave = -1;
    }
    int status = run();
    remove_link(pty_name);
    if (eeprom_path)
        eeprom_save();
    if (status == cpu_Crashed) {
        fprintf(stderr, "board_sim: the firmware crashed at pc 0x%04x\n", avr->pc);
        return 3;
    }
    return 0;
}
