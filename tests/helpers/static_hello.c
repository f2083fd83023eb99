/* static_hello: a statically linked program (no PT_INTERP) the library must refuse to exec. */
#include <stdio.h>

int main(void)
{
	puts("static binary ran");
	return 0;
}
