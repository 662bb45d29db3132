// DeviceControl module.
