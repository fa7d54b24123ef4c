/* strtok and localtime return pointers into static storage. */
#include <pthread.h>
#include <string.h>
#include <time.h>
static void *t(void *a)
{
    char buf[32] = "a b c";
    char *w = strtok(buf, " "); // RACE
    time_t now = 0;
    struct tm *tm = localtime(&now); // RACE
    return w + tm->tm_sec;
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
