// SPDX-License-Identifier: GPL-2.0-only
/*
 * ab-out - the embedded kernel's output channel: copies its standard input
 * to I/O port 0xe9, which qemu's isa-debugcon device hands to the host
 * (scripts/vm/vm-run.sh). No interrupt is involved: a serial port was
 * tried first, and qemu's 16550 raises a transmit interrupt for every byte,
 * so on PREEMPT_RT (forced threaded IRQs) a command printing ~100 KB made
 * the spurious-IRQ detector disable the port ("irq 3: nobody cared").
 * Exit status: 0 at end of input, 1 when the port cannot be reached
 * (ioperm needs CAP_SYS_RAWIO) or input fails.
 */
#include <stdio.h>
#include <sys/io.h>
#include <unistd.h>

#define AB_DEBUGCON_PORT 0xe9

int main(void)
{
	unsigned char buf[4096];
	ssize_t n;

	if (ioperm(AB_DEBUGCON_PORT, 1, 1)) {
		perror("ab-out: ioperm(0xe9)");
		return 1;
	}
	while ((n = read(0, buf, sizeof(buf))) > 0)
		outsb(AB_DEBUGCON_PORT, buf, (unsigned long)n);
	return n < 0;
}
