#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Support

extension FileDescriptorTransport {
    /// Baud rates termios can set by constant.
    static let baudRates: [Int: speed_t] = {
        var rates: [Int: speed_t] = [9600: speed_t(B9600), 19200: speed_t(B19200), 38400: speed_t(B38400),
                                     57600: speed_t(B57600), 115_200: speed_t(B115200), 230_400: speed_t(B230400)]
        #if os(Linux)
        rates[460_800] = speed_t(B460800); rates[500_000] = speed_t(B500000); rates[576_000] = speed_t(B576000)
        rates[921_600] = speed_t(B921600); rates[1_000_000] = speed_t(B1000000); rates[1_500_000] = speed_t(B1500000)
        rates[2_000_000] = speed_t(B2000000); rates[3_000_000] = speed_t(B3000000); rates[4_000_000] = speed_t(B4000000)
        #endif
        return rates
    }()

    /// Opens an H4 UART (`serial:DEVICE[,BAUD][,rtscts]`) in raw mode, 8N1, optionally with RTS/CTS.
    public static func serial(device: String, baud: Int, rtscts: Bool, moniker: String) throws(HCITransportError) -> FileDescriptorTransport {
        guard let speed = baudRates[baud] else {
            let known = baudRates.keys.sorted().map(String.init).joined(separator: ", ")
            throw HCITransportError(.invalidMoniker, "\(moniker): baud rate \(baud) is not supported (one of \(known))")
        }
        let fd: Int32
        do {
            fd = try RawTerminal.open(device) { options in
                cfsetispeed(&options, speed)
                cfsetospeed(&options, speed)
                #if os(Linux)
                if rtscts { options.c_cflag |= tcflag_t(CRTSCTS) } else { options.c_cflag &= ~tcflag_t(CRTSCTS) }
                #else
                if rtscts { options.c_cflag |= tcflag_t(CRTS_IFLOW | CCTS_OFLOW) }
                #endif
            }
        } catch {
            switch error {
            case .open(let failure):
                switch failure.code {
                case ENOENT, ENODEV, ENXIO: throw HCITransportError(.notFound, "\(moniker): no serial device at \(device)")
                case EACCES, EPERM:
                    throw HCITransportError(.permissionDenied, "\(moniker): permission denied on \(device) (add yourself to the 'dialout' group)")
                default: throw HCITransportError(.io, "\(moniker): cannot open \(device): \(POSIX.describe(failure.code))")
                }
            case .notATerminal(let failure):
                throw HCITransportError(.invalidMoniker, "\(moniker): \(device) is not a terminal device: \(POSIX.describe(failure.code))")
            case .configure(let failure):
                throw HCITransportError(.io, "\(moniker): cannot configure \(device): \(POSIX.describe(failure.code))")
            }
        }
        return FileDescriptorTransport(moniker: moniker, fd: fd)
    }
}
