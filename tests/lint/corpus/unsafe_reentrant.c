/* The reentrant forms keep their state in the caller's variables. */
#include <pthread.h>
#include <string.h>
#include <time.h>
static void *t(void *a)
{
    char buf[16] = "a b", *save;
    char *w = strtok_r(buf, " ", &save); // NORACE
    time_t now = 0;
    struct tm tm;
    localtime_r(&now, &tm); // NORACE
    return w + tm.tm_sec;
}
int main(void)
{
    pthread_t x, y;
    pthread_create(&x, 0, t, 0);
    pthread_create(&y, 0, t, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
