/* A tool built in a glibc build stage and copied into a musl image. */
#include <stdio.h>
int main(void) { puts("monthly report"); return 0; }
