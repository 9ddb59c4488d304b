// SPDX-License-Identifier: GPL-2.0
/*
 * audio_dsp.c - a biquad low-pass (RBJ cookbook, 1 kHz, Q 0.707) standing in for an
 * audio callback's processing, and its calibration.
 */
#include "audio_dsp.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sys.h"

#define CAL_BATCH_NS (200 * NSEC_PER_USEC)	/* time one calibration sample */
#define CAL_SAMPLES 31

int audio_dsp_init(struct dsp *d, size_t frames, unsigned int channels, double rate,
	     uint64_t seed)
{
	double w0 = 2 * M_PI * 1000.0 / rate, alpha = sin(w0) / (2 * 0.7071), a0;
	uint64_t x = seed ? seed : 0x9e3779b97f4a7c15ULL;
	size_t i, n = frames * channels;

	memset(d, 0, sizeof(*d));
	if (!channels || channels > DSP_MAX_CHANNELS)
		return -EINVAL;
	d->in = calloc(n, sizeof(float));
	d->out = calloc(n, sizeof(float));
	if (!d->in || !d->out) {
		audio_dsp_free(d);
		return -ENOMEM;
	}
	d->frames = frames;
	d->channels = channels;
	for (i = 0; i < n; i++) {	/* xorshift64 noise in [-1, 1): never denormal */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		d->in[i] = (float)((double)(x >> 11) / (double)(1ULL << 52) - 1.0);
	}
	a0 = 1 + alpha;
	d->b0 = (1 - cos(w0)) / 2 / a0;
	d->b1 = (1 - cos(w0)) / a0;
	d->b2 = d->b0;
	d->a1 = -2 * cos(w0) / a0;
	d->a2 = (1 - alpha) / a0;
	return 0;
}

void audio_dsp_run(struct dsp *d, unsigned int passes)
{
	size_t f;
	unsigned int c, p;

	for (p = 0; p < passes; p++) {
		for (f = 0; f < d->frames; f++) {
			for (c = 0; c < d->channels; c++) {
				double *z = d->z[c];
				double xin = d->in[f * d->channels + c];
				double y = d->b0 * xin + z[0];

				z[0] = d->b1 * xin - d->a1 * y + z[1];
				z[1] = d->b2 * xin - d->a2 * y;
				d->out[f * d->channels + c] = (float)y;
			}
		}
		d->sink = d->out[p % (d->frames * d->channels)];
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * audio_dsp_calibrate - the fastest of CAL_SAMPLES batches, each long enough for the clock:
 * the cost of the work itself. A median would take in whatever else the CPU was doing
 * during setup (another VM, another workload) and make the run's DSP too short; at run
 * time such interference is what the "dsp" metric is there to show.
 */
uint64_t audio_dsp_calibrate(struct dsp *d)
{
	uint64_t t0, dt, per[CAL_SAMPLES];
	unsigned int batch = 1, i;

	for (;;) {
		t0 = now_ns();
		audio_dsp_run(d, batch);
		dt = now_ns() - t0;
		if (dt >= CAL_BATCH_NS || batch >= (1U << 24))
			break;
		batch *= 2;
	}
	for (i = 0; i < CAL_SAMPLES; i++) {
		t0 = now_ns();
		audio_dsp_run(d, batch);
		per[i] = (now_ns() - t0) / batch;
	}
	qsort(per, CAL_SAMPLES, sizeof(per[0]), cmp_u64);
	return per[0] ? per[0] : 1;
}

void audio_dsp_free(struct dsp *d)
{
	free(d->in);
	free(d->out);
	d->in = d->out = NULL;
}
