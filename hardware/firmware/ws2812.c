/* WS2812B output at 16 MHz, cycle-counted.
 *
 * Every bit starts with the pin going high; a 0 bit falls after 6 cycles (375 ns), a 1 bit after
 * 13 cycles (812.5 ns); a bit lasts 20 cycles (1.25 us). The byte fetch between bytes stretches
 * the low phase by 5 cycles. Interrupts are off only while one pixel (24 bits, ~31 us) is sent, so
 * the UART interrupts run between pixels; that stretches one low phase by the length of an ISR
 * (a few us), well below the 50 us reset that latches the strip. */
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
    while (count--) {
        uint8_t sreg = SREG;
        uint8_t byte, bits, bytes;
        cli();
        asm volatile(
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
            : [ptr] "+e"(grb), [byte] "=&d"(byte), [bits] "=&d"(bits), [bytes] "=&d"(bytes)
            : [port] "I"(_SFR_IO_ADDR(WS2812_PORT)), [hi] "r"(hi), [lo] "r"(lo));
        SREG = sreg;
    }
    _delay_us(300); /* reset/latch: 50 us for WS2812B, 280 us for the V5 parts */
}
