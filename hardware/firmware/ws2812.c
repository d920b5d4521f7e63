/* WS2812B output at 16 MHz, cycle-counted.
 *
 * Every bit starts with the pin going high; a 0 bit falls after 6 cycles (375 ns), a 1 bit after
 * 13 cycles (812.5 ns); a bit lasts 20 cycles (1.25 us). The byte fetch between bytes stretches
 * the low phase by 5 cycles. Interrupts are off while a pixel (24 bits, ~31 us) is sent; between
 * pixels pending interrupts may run, so the UART keeps up (its FIFO holds two bytes) and a low
 * phase grows by at most two short ISRs (~7 us worst case), below the 50 us reset that latches. */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <util/delay.h>
#include "ws2812.h"

void ws2812_init(void)
{
    WS2812_PORT &= (uint8_t)~_BV(WS2812_BIT);
    WS2812_DDR |= _BV(WS2812_BIT);
}

void ws2812_show(const uint8_t *grb, uint16_t count)
{
    uint8_t hi = WS2812_PORT | _BV(WS2812_BIT);
    uint8_t lo = WS2812_PORT & (uint8_t)~_BV(WS2812_BIT);
    uint8_t sreg = SREG;
    uint8_t byte, bits, bytes;
    if (!count)
        return;
    cli();
    asm volatile(
        "0:\n"
        "ldi  %[bytes], 3\n"
        "1:\n"
        "ld   %[byte], %a[ptr]+\n"   /* 2 */
        "ldi  %[bits], 8\n"          /* 1 */
        "2:\n"
        "out  %[port], %[hi]\n"      /* t0: rise */
        "nop\n nop\n nop\n nop\n"    /* t1..t4 */
        "sbrs %[byte], 7\n"          /* t5 (skips the next out for a 1 bit) */
        "out  %[port], %[lo]\n"      /* t6: a 0 bit falls */
        "nop\n nop\n nop\n nop\n nop\n nop\n" /* t7..t12 */
        "out  %[port], %[lo]\n"      /* t13: a 1 bit falls */
        "lsl  %[byte]\n"             /* t14 */
        "dec  %[bits]\n"             /* t15 */
        "nop\n nop\n"                /* t16, t17 */
        "brne 2b\n"                  /* t18, t19 -> next bit at t20 */
        "dec  %[bytes]\n"
        "brne 1b\n"
        /* between pixels pending interrupts get a short window: the instruction after sei always
           executes first and one main-line instruction runs after each reti, so silicon serves at
           most two ISRs here (simavr, which delays interrupts one instruction more, serves one) */
        "sei\n"
        "nop\n"
        "nop\n"
        "cli\n"
        "sbiw %[count], 1\n"
        "brne 0b\n"
        : [ptr] "+e"(grb), [count] "+w"(count), [byte] "=&d"(byte), [bits] "=&d"(bits), [bytes] "=&d"(bytes)
        : [port] "I"(_SFR_IO_ADDR(WS2812_PORT)), [hi] "r"(hi), [lo] "r"(lo));
    SREG = sreg;
    _delay_us(300); /* reset/latch: 50 us for WS2812B, 280 us for the V5 parts */
}
