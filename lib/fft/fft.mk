# Discrete Fourier transforms (usmarr/fft.h): plans and twiddle tables, transforms along
# one axis on cl/fft.cl, the public functions, frequencies and shifts.
lib_libusmarr_la_SOURCES += \
	lib/fft/fft_internal.h \
	lib/fft/tables.c \
	lib/fft/plans.c \
	lib/fft/passes.c \
	lib/fft/axis.c \
	lib/fft/fft.c \
	lib/fft/freq.c
