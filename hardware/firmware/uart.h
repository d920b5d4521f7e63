#ifndef UART_H
#define UART_H
#include <stdint.h>
void uart_init(void);
int16_t uart_get(void);          /* next received byte, or -1 */
uint8_t uart_rx_empty(void);     /* call with interrupts disabled to decide to sleep */
void uart_put(uint8_t byte);     /* waits while the transmit ring is full */
extern volatile uint16_t uart_rx_overflows; /* times the receive ring was full (bytes lost) */
#endif
