/* A threaded musl program linked against a library of the build stage. */
#include <pthread.h>
#include <stdio.h>
int queue_depth(void);
static void* work(void* arg) { return arg; }
int main(void) {
  pthread_t t[4];
  for (int i = 0; i < 4; ++i) pthread_create(&t[i], NULL, work, NULL);
  for (int i = 0; i < 4; ++i) pthread_join(t[i], NULL);
  printf("%d\n", queue_depth());
  return 0;
}
