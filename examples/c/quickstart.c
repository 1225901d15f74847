/* The C quick start: samples BeanFollower's Hermite curve at its start, middle and end.
 * Build it against an installed wayfarer (packaging/install-c.sh; docs/install.md):
 *   cc quickstart.c $(pkg-config --cflags --libs wayfarer) -o quickstart
 * or with CMake through find_package(wayfarer) (CMakeLists.txt beside this file). */
#include <stdio.h>
#include <wayfarer/wayfarer.h>

int main(void) {
    float p0[3] = {0, 0, 0}, p1[3] = {4, 0, 2}, m0[3] = {1, 0, 0}, m1[3] = {0, 0, 3};
    float ts[3] = {0.0f, 0.5f, 1.0f};
    float pos[3 * 3];
    size_t i;
    WfStatus s = wf_hermite_segment_eval(p0, p1, m0, m1, ts, 3, pos, 3, NULL, 0);
    if (s != WF_STATUS_OK) {
        fprintf(stderr, "wayfarer: %s\n", wf_status_str(s));
        return 1;
    }
    printf("wayfarer %s\n", wf_version());
    for (i = 0; i < 3; i++) {
        printf("t=%.1f: %.3f %.3f %.3f\n", ts[i], pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]);
    }
    return 0;
}
