/* UART0 with interrupt-driven receive and transmit rings (8N1). */
#include <avr/interrupt.h>
#include <avr/io.h>
#include "uart.h"

#ifndef BAUD
#define BAUD 115200UL
#endif
/* Double speed mode: 115200 -> UBRR 16 (+2.1 %, the Arduino setting), 500000 -> UBRR 3 (exact). */
#define UBRR_VALUE ((F_CPU + 4UL * (BAUD)) / (8UL * (BAUD)) - 1UL)

#define RX_SIZE 256 /* uint8_t indices wrap by themselves */
#define TX_SIZE 128
#define TX_MASK (TX_SIZE - 1)

static volatile uint8_t rx_buf[RX_SIZE];
static volatile uint8_t rx_head, rx_tail;
static volatile uint8_t tx_buf[TX_SIZE];
static volatile uint8_t tx_head, tx_tail;
volatile uint16_t uart_rx_overflows;
static volatile uint8_t rx_full;

void uart_init(void)
{
    UCSR0A = _BV(U2X0); /* before UBRR0: simavr derives the baud rate when UBRR0 is written */
    UBRR0 = UBRR_VALUE;
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
}

/* Kept minimal: it runs in the gaps between LED pixels, where every cycle lengthens a low phase. */
ISR(USART_RX_vect)
{
    uint8_t byte = UDR0;
    uint8_t head = rx_head;
    uint8_t next = (uint8_t)(head + 1);
    if (next == rx_tail) {
        rx_full = 1; /* counted by uart_get, outside the interrupt */
        return;
    }
    rx_buf[head] = byte;
    rx_head = next;
}

ISR(USART_UDRE_vect)
{
    if (tx_head == tx_tail) {
        UCSR0B &= (uint8_t)~_BV(UDRIE0);
        return;
    }
    UDR0 = tx_buf[tx_tail];
    tx_tail = (tx_tail + 1) & TX_MASK;
}

int16_t uart_get(void)
{
    if (rx_full) {
        rx_full = 0;
        uart_rx_overflows++;
    }
    if (rx_head == rx_tail)
        return -1;
    uint8_t byte = rx_buf[rx_tail];
    rx_tail = (uint8_t)(rx_tail + 1);
    return byte;
}

uint8_t uart_rx_empty(void) { return rx_head == rx_tail; }

void uart_put(uint8_t byte)
{
    uint8_t next = (tx_head + 1) & TX_MASK;
    while (next == tx_tail)
        ; /* the UDRE interrupt drains the ring */
    tx_buf[tx_head] = byte;
    tx_head = next;
    UCSR0B |= _BV(UDRIE0);
}
