# libusmarr-mpi: storages split over MPI ranks, halo exchange, scatter and gather.  A
# separate library with its own header and pkg-config file, so -lusmarr needs no MPI;
# built when configure finds MPI.
EXTRA_DIST += usmarr-mpi.pc.in
if HAVE_MPI
lib_LTLIBRARIES += lib/libusmarr-mpi.la
include_HEADERS += include/usmarr_mpi.h
pkgconfig_DATA += usmarr-mpi.pc
lib_libusmarr_mpi_la_SOURCES = \
	lib/mpi/mpi_internal.h \
	lib/mpi/collective.c \
	lib/mpi/grid.c \
	lib/mpi/storages.c \
	lib/mpi/exchange.c \
	lib/mpi/scatter.c
lib_libusmarr_mpi_la_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS) -fvisibility=hidden
lib_libusmarr_mpi_la_LIBADD = lib/libusmarr.la $(MPI_LIBS)
lib_libusmarr_mpi_la_LDFLAGS = $(AM_LDFLAGS) -version-info $(USMARR_LT_VERSION) -no-undefined
endif
